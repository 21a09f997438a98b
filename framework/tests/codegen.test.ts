import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, it } from 'node:test';
import { Code, code, compile, join as joinCode, literalOf, Name, nil, printing, prop, type SafeValue } from '../codegen';

const root = join(__dirname, '..', '..');

/** What the generated `return <value>;` evaluates to. */
function evaluate(value: Code): unknown {
  return compile('Test.evaluate', [], code`return ${value};`);
}

describe('codegen literals', () => {
  const hostile = [
    'say "hi"',
    'back\\slash \\" \\\\',
    'line\u2028para\u2029end',
    '</script><script>alert(1)</script>',
    '${process.exit(1)}',
    '`backtick` and \'single\'',
    '\n\r\t\0\u0001',
    '\ud800 lone surrogate',
    '"); process.exit(1); ("',
  ];

  it('writes strings that evaluate back to themselves and cannot end the literal or a <script>', () => {
    for (const text of hostile) {
      const source = String(code`${text}`);
      assert.equal(evaluate(code`${text}`), text, source);
      assert.doesNotMatch(source, /[\u2028\u2029\n\r<]/, source);
      assert.equal(source[0], '"');
      assert.equal(source.at(-1), '"');
    }
    assert.equal(String(code`x === ${'</script>'}`), 'x === "\\u003c/script>"');
    assert.equal(String(code`${'a\u2028b'}`), '"a\\u2028b"');
  });

  it('keeps numbers as they are, -0, NaN and the infinities included, and negative ones in parentheses', () => {
    for (const number of [0, -0, 1.5, -2, 1e21, 5e-324, Number.MAX_SAFE_INTEGER, NaN, Infinity, -Infinity]) {
      assert.ok(Object.is(evaluate(code`${number}`), number), String(number));
    }
    assert.equal(String(code`${-0}`), '(-0)');
    assert.equal(evaluate(code`5-${-1}`), 6, 'x-${-1} is not x--1');
    assert.equal(String(code`${NaN} ${Infinity}`), 'NaN Infinity');
  });

  it('writes booleans, null, undefined and plain arrays and objects of them', () => {
    const value = { list: [1, 'two', [true, null]], nested: { empty: {} }, 'odd key"': false, gone: undefined };
    assert.deepEqual(evaluate(code`${value}`), value);
    assert.equal(String(code`${[1, 'a']}`), '[1,"a"]');
    assert.equal(String(code`${undefined}`), 'undefined');
    assert.deepEqual(evaluate(code`${[, 1] as unknown as number[]}`), [undefined, 1]);
    const bare = Object.assign(Object.create(null), { a: 1 }) as Record<string, number>;
    assert.equal(String(code`${bare}`), '{"a":1}');
  });

  it('keeps a __proto__ key an own key, never the prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, SafeValue>;
    const source = String(code`${parsed}`);
    assert.equal(source, '{["__proto__"]:{"polluted":true},"a":1}');
    const built = evaluate(code`${parsed}`) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(built), Object.prototype);
    assert.deepEqual(Object.keys(built), ['__proto__', 'a']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(String(code`${'__proto__'}`), '"__proto__"', 'as a string it is just a string');
  });

  it('refuses at run time what is not a plain value, however it got there', () => {
    const refused: Array<[unknown, RegExp]> = [
      [() => 1, /the function \(anonymous\)/],
      [function named() {}, /the function named/],
      [Symbol('s'), /a symbol/],
      [10n, /a bigint/],
      [new Date(0), /an instance of Date/],
      [new Map(), /an instance of Map/],
      [{ nested: [{ deep: () => 1 }] }, /the function deep/],
      [{ get secret() { return 1; } }, /accessors/],
      [{ [Symbol('s')]: 1 }, /symbol keys/],
      [Array, /the function Array/],
      [new (class Point { x = 1 })(), /an instance of Point/],
    ];
    for (const [value, message] of refused) {
      assert.throws(() => code`${value as string}`, { name: 'TypeError', message }, String(message));
    }
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.throws(() => literalOf(cyclic), /contains itself/);
    const shared = { a: 1 };
    assert.equal(literalOf([shared, shared]), '[{"a":1},{"a":1}]', 'a value met twice is not a cycle');
  });

  it('refuses functions, objects with methods, class instances and symbols in the type checker too', () => {
    class Point {
      constructor(public x: number) {}
    }
    // @ts-expect-error a function is not code nor a literal
    assert.throws(() => code`${() => 1}`, TypeError);
    // @ts-expect-error an object with a method is not a plain value
    assert.throws(() => code`${{ a: 1, run() { return 2; } }}`, TypeError);
    // @ts-expect-error a class instance is not a plain value
    assert.throws(() => code`${new Point(1)}`, TypeError);
    // @ts-expect-error a symbol has no literal
    assert.throws(() => code`${Symbol('s')}`, TypeError);
    // @ts-expect-error a string is never code: it would be inserted quoted
    const fromString: Code = 'return 1';
    assert.equal(typeof fromString, 'string');
  });
});

describe('codegen code and names', () => {
  it('inserts nested Code and Names as code and everything else as a literal', () => {
    const value = new Name('value');
    const test = code`${value} !== ${'a"b'}`;
    assert.equal(String(code`if (${test}) return ${code`${value} + ${1}`};`), 'if (value !== "a\\"b") return value + 1;');
    assert.equal(String(code`${nil}x${nil}`), 'x');
    assert.equal(String(code`${''}`), '""', 'an empty string is a literal, not nothing');
    assert.equal(String(joinCode([code`a`, code`b`, code`c`], code` && `)), 'a && b && c');
    assert.equal(String(joinCode([], code`,`)), '');
  });

  it('accepts identifiers as names and refuses anything else', () => {
    for (const text of ['value', '_private', '$el', 'a1', 'rulesTest0_2']) assert.equal(String(new Name(text)), text);
    for (const text of ['', '1a', 'a-b', 'a b', 'x;alert(1)', 'class', 'return', 'let', 'undefined', 'NaN', 'Infinity', 'arguments', 'été']) {
      assert.throws(() => new Name(text), { name: 'TypeError', message: /is not a name generated code can bind/ }, text);
    }
    assert.throws(() => new Name(1 as unknown as string), TypeError);
  });

  it('reads properties with a dot when the key is an identifier and brackets otherwise, never __proto__', () => {
    const object = new Name('object');
    assert.equal(String(prop(object, 'title')), 'object.title');
    assert.equal(String(prop(object, 'class')), 'object.class');
    assert.equal(String(prop(object, 'full name')), 'object["full name"]');
    assert.equal(String(prop(object, '"]; evil(); ["')), 'object["\\"]; evil(); [\\""]');
    assert.equal(String(prop(object, '0')), 'object["0"]');
    assert.equal(String(prop(prop(object, 'list'), 2)), 'object.list[2]');
    assert.throws(() => prop(object, '__proto__'), { name: 'TypeError', message: /__proto__/ });
    assert.throws(() => prop('object' as unknown as Name, 'a'), TypeError);
    const read = compile<(o: object) => unknown>('Test.read', [], code`return (object) => ${prop(object, 'a b')};`);
    assert.equal(read({ 'a b': 7 }), 7);
  });

  it('makes Code only through the tag', () => {
    assert.throws(() => new (Code as unknown as new (key: unknown, text: string) => Code)(Symbol('codegen'), 'x'), TypeError);
    const strings = Object.assign(['evil()'], {}) as unknown as TemplateStringsArray;
    assert.throws(() => code(strings), /template tag/);
  });
});

describe('codegen compile', () => {
  it('binds each Name to its value and returns what the body returns', () => {
    const limit = new Name('limit');
    const scale = new Name('scale');
    const below = compile<(n: number) => boolean>('Test.below', [[limit, 10], [scale, (n: number) => n * 2]], code`return (n) => ${scale}(n) < ${limit};`);
    assert.equal(below(4), true);
    assert.equal(below(5), false);
    assert.throws(() => compile('Test.bad', [['limit' as unknown as Name, 1]], code`return 1;`), /as Names/);
    assert.throws(() => compile('Test.bad', [], 'return 1' as unknown as Code), /made by code/);
  });

  it('selects what TRELLIS_PRINT_CODE names: everything, a class, a step, or an exact label', () => {
    assert.equal(printing('UserIn.check', undefined), false);
    assert.equal(printing('UserIn.check', ''), false);
    assert.equal(printing('UserIn.check', '0'), false);
    assert.equal(printing('UserIn.check', '1'), true);
    assert.equal(printing('UserIn.check', '*'), true);
    assert.equal(printing('UserIn.check', 'UserIn'), true);
    assert.equal(printing('UserInfo.check', 'UserIn'), false);
    assert.equal(printing('UserIn.patch', 'check'), false);
    assert.equal(printing('UserIn.patch', 'Other, UserIn.patch'), true);
    assert.equal(printing('UserIn.construct', 'UserIn.patch'), false);
  });

  it('prints the check and the instance builder of a DTO to stderr when TRELLIS_PRINT_CODE names it', () => {
    const app = join(__dirname, 'fixtures', 'codegen-print', 'app.ts');
    const run = (setting: string | undefined) => {
      const env = { ...process.env };
      delete env.TRELLIS_PRINT_CODE;
      if (setting !== undefined) env.TRELLIS_PRINT_CODE = setting;
      const result = spawnSync(process.execPath, ['-r', './register.js', app], { cwd: root, encoding: 'utf8', env });
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stdout, '201 422 200\n');
      return result.stderr;
    };
    const printed = run('UserIn');
    const labels = printed.split('\n').filter((line) => line.startsWith('// trellis codegen:'));
    assert.deepEqual(labels.sort(), ['// trellis codegen: UserIn.check', '// trellis codegen: UserIn.construct', '// trellis codegen: UserIn.patch']);
    const check = printed.slice(printed.indexOf('// trellis codegen: UserIn.check'));
    assert.match(check, /^function anonymous\(grouped,properties,hasOwn,joinField,record,everyItem,isCollection,primitiveFailures,nestedInto\n\) \{$/m);
    assert.match(check, /return function check\(instance, prefix, details\) \{/);
    assert.match(check, /if \(key !== "name" && key !== "age" && key !== "display name"\) \{/);
    assert.match(check, /const value = object\["display name"\];/);
    assert.match(check, /failures = record\(failures, "isInt", rulesMessage0_1\(value, object\)\);/);
    const patch = printed.slice(printed.indexOf('// trellis codegen: UserIn.patch'));
    assert.match(patch, /^function anonymous\(prototype,fields,hasOwn,getPrototypeOf,skipsAssign,patchNested\n\) \{$/m);
    assert.match(patch, /instance\.name = plain\.name;/);
    assert.match(patch, /instance\["display name"\] = plain\["display name"\];/);
    assert.match(printed.slice(printed.indexOf('// trellis codegen: UserIn.construct')), /const instance = new cls\(\);/);
    assert.doesNotMatch(printed, /UserInfo/);

    const all = run('1');
    assert.match(all, /\/\/ trellis codegen: UserInfo\.check\n/);
    assert.match(all, /\/\/ trellis codegen: UserIn\.check\n/);
    assert.equal(run(undefined), '', 'nothing printed without the variable');
  });
});

describe('generated code enters through framework/codegen', () => {
  it('has no new Function( or eval( in framework/ but in codegen/compile.ts and serializer-code.ts (fast-json-stringify)', () => {
    const allowed = ['framework/codegen/compile.ts', 'framework/pipeline/serializer-code.ts'];
    const found: string[] = [];
    const visit = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== 'tests' && entry.name !== 'node_modules') visit(path);
        } else if (/\.[cm]?[jt]s$/.test(entry.name) && /\bnew\s+Function\s*\(|\beval\s*\(/.test(readFileSync(path, 'utf8'))) {
          found.push(relative(root, path).split(sep).join('/'));
        }
      }
    };
    visit(join(root, 'framework'));
    assert.deepEqual(found.filter((file) => !allowed.includes(file)), []);
    assert.ok(found.includes('framework/codegen/compile.ts'), 'the scan finds the one it allows');
  });
});
