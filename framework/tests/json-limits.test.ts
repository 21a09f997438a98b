import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { HTTPException } from '../http-exception';
import { MAX_JSON_DEPTH, parseJson } from '../pipeline/body';

// parseJson's limits are checked on the bytes, before parsing (a count of `{`/`[` bytes first, the full scan only
// when that count or the body's length could exceed one). The oracle here measures the parsed value instead:
// its depth, the most keys of one object, its objects and arrays, the items of a top-level array.
interface Shape { depth: number; keys: number; containers: number }

function shapeOf(value: unknown): Shape {
  if (value === null || typeof value !== 'object') return { depth: 0, keys: 0, containers: 0 };
  const children = (Array.isArray(value) ? value : Object.values(value)).map(shapeOf);
  return {
    depth: 1 + Math.max(0, ...children.map((c) => c.depth)),
    keys: Math.max(Array.isArray(value) ? 0 : Object.keys(value).length, ...children.map((c) => c.keys)),
    containers: 1 + children.reduce((sum, c) => sum + c.containers, 0),
  };
}

function outcome(text: string, maxObjectKeys: number, maxJsonContainers: number, maxItems: number): string {
  try {
    parseJson(Buffer.from(text), { maxObjectKeys, maxJsonContainers }, maxItems);
    return 'parsed';
  } catch (error) {
    assert.ok(error instanceof HTTPException);
    return `${error.status} ${error.message}`;
  }
}

// Strings full of the bytes the scan counts, so that the count of `{`/`[` bytes overestimates.
const text = fc.string({ unit: fc.constantFrom('{', '[', ']', '}', ':', ',', '"', '\\', 'a', 'é'), maxLength: 12 });
const values = fc.jsonValue({ maxDepth: 4, stringUnit: 'grapheme' }).chain((inner) =>
  fc.oneof(fc.constant(inner), text, fc.array(fc.oneof(fc.constant(inner), text), { maxLength: 5 })));

describe('JSON body limits (fast-check, seed 20261124)', () => {
  it('refuse a body exactly when its depth, keys, containers or top-level items exceed the limits', () => {
    const cases = fc.record({
      value: values,
      wrap: fc.oneof(fc.constant(0), fc.integer({ min: MAX_JSON_DEPTH - 6, max: MAX_JSON_DEPTH + 2 })),
      maxObjectKeys: fc.integer({ min: 1, max: 8 }),
      maxJsonContainers: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constant(100_000)),
      maxItems: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constant(Infinity)),
    });
    let refused = 0;
    fc.assert(
      fc.property(cases, ({ value, wrap, maxObjectKeys, maxJsonContainers, maxItems }) => {
        const wrapped = Array.from({ length: wrap }).reduce<unknown>((inner) => [inner], value);
        const body = JSON.stringify(wrapped);
        fc.pre(!/"(__proto__|constructor)"/.test(body));
        const shape = shapeOf(wrapped);
        const excess = [
          shape.depth > MAX_JSON_DEPTH,
          shape.keys > maxObjectKeys,
          shape.containers > maxJsonContainers,
          Array.isArray(wrapped) && wrapped.length > maxItems,
        ];
        const got = outcome(body, maxObjectKeys, maxJsonContainers, maxItems);
        assert.equal(got !== 'parsed', excess.some(Boolean), `${got} for ${body}`);
        if (excess.filter(Boolean).length === 1) {
          const expected = [
            `400 JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`,
            `413 A JSON object of the body has more than ${maxObjectKeys} keys`,
            `413 The JSON body has more than ${maxJsonContainers} objects and arrays`,
            `413 The body is an array of more than ${maxItems} items`,
          ][excess.indexOf(true)];
          assert.equal(got, expected, body);
        }
        if (got !== 'parsed') refused++;
      }),
      { seed: 20261124, numRuns: 2000 },
    );
    assert.ok(refused > 200 && refused < 1800, `both outcomes met (${refused} of 2000 refused)`);
  });

  it('skip the full scan only where no limit can be exceeded: brackets in strings still leave a body valid', () => {
    const brackets = `{"a":"${'[{'.repeat(MAX_JSON_DEPTH)}"}`;
    assert.equal(outcome(brackets, 1000, 100_000, Infinity), 'parsed');
    const deep = `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`;
    assert.equal(outcome(deep, 1000, 100_000, Infinity), `400 JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`);
    assert.equal(outcome('[[],[]]', 1000, 2, Infinity), '413 The JSON body has more than 2 objects and arrays');
    assert.equal(outcome('{"a":1,"b":2}', 1, 100_000, Infinity), '413 A JSON object of the body has more than 1 keys');
    assert.equal(outcome('[1,2]', 1000, 100_000, 1), '413 The body is an array of more than 1 items');
  });
});
