import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isCollection, parseDocument, visit } from 'yaml';
import { openProject } from '../../runtime/internal';
import { createProject, OPTIONAL_EXAMPLES, resolveExamples } from '../index';
import { createFixture } from '../test-support/create-fixture';

const { request } = createFixture();

/** Every example set worth telling apart: none (--minimal), each optional one alone, all of them. */
const EXAMPLE_SETS: string[][] = [[], ...OPTIONAL_EXAMPLES.map((name) => [name]), [...OPTIONAL_EXAMPLES]];

/** Each leaf of `data` as [path, value]. */
function leaves(data: unknown, path: string[] = []): Array<[string[], unknown]> {
  if (data === null || typeof data !== 'object') return [[path, data]];
  return Object.entries(data).flatMap(([key, value]) => leaves(value, [...path, key]));
}

describe('the generated config.yaml is YAML', () => {
  for (const examples of EXAMPLE_SETS) {
    for (const title of ['Demo API', 'Shop: "best" #1 & {co} [x] ${NOT_A_REFERENCE}']) {
      it(`parses with no error or warning, and trellis reads the same values (examples: ${examples.join(', ') || 'none'}; title ${title})`, async () => {
        const { root } = await createProject(request({ examples: resolveExamples(examples), title, port: 3000 }));
        const source = readFileSync(join(root, 'config.yaml'), 'utf8');
        const doc = parseDocument(source, { strict: true, uniqueKeys: true, prettyErrors: false });
        assert.deepEqual([doc.errors.map(String), doc.warnings.map(String)], [[], []]);
        // Block style only: in a flow collection (`{ }`, `[ ]`) a `${...}` is no plain scalar.
        const flow: string[] = [];
        visit(doc, (_, node) => void (isCollection(node) && node.flow && flow.push(String(node))));
        assert.deepEqual(flow, []);

        const parsed = doc.toJS() as Record<string, Record<string, unknown>>;
        // `$${...}` is trellis's literal `${...}` (a title is never read as a reference).
        assert.equal(parsed.app.title, title.replaceAll('${', () => '$${'));
        assert.equal(parsed.server.port, 3000);
        assert.deepEqual(parsed.middleware, ['timing']);
        // trellis, with the generated .env: `${ADMIN_TOKEN}` is the token, every other value as plain YAML reads it.
        const { config } = openProject(root, { env: {} });
        assert.deepEqual(config.issues, []);
        assert.equal(config.values.app && (config.values.app as { title: string }).title, title);
        const token = examples.includes('admin') ? 'secret-token' : undefined;
        assert.equal(parsed.admin?.token, token && '${ADMIN_TOKEN}');
        for (const [path, value] of leaves(parsed)) {
          const read = path.reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], config.values);
          // `${REDIS_URL:-}` with no REDIS_URL reads as null (no Redis: WebSocket broadcasts stay in the process).
          const expected =
            path.join('.') === 'admin.token' ? token : path.join('.') === 'redis.url' ? null : typeof value === 'string' ? value.replaceAll('$${', () => '${') : value;
          assert.deepEqual(read, expected, path.join('.'));
        }
      });
    }
  }
});
