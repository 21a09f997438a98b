import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';

const ROOT = resolve(__dirname, '..', '..');
const project = mkdtempSync(join(tmpdir(), 'trellis-serializers-'));
writeFileSync(join(project, 'package.json'), '{"name":"p"}');
mkdirSync(join(project, 'routers'));
const routeFile = join(project, 'routers', 'tasks.ts');
writeFileSync(routeFile, '');
const cache = join(project, 'node_modules', '.cache', 'trellis', 'serializers');
after(() => rmSync(project, { recursive: true, force: true }));

// A fresh process (nothing loaded or remembered) shapes one value; prints its JSON and whether ajv was loaded.
function shapeInChild(schema: object, env: NodeJS.ProcessEnv = {}): { json: string; ajv: boolean } {
  const script = `
    const { serializerOf } = require('./framework/pipeline/serializer-code');
    const json = serializerOf(${JSON.stringify(schema)}, ${JSON.stringify(routeFile)})({ id: 1, title: 'a', secret: 'x' });
    process.stdout.write(JSON.stringify({ json, ajv: Object.keys(require.cache).some((f) => f.includes('/node_modules/ajv/')) }));`;
  const { TRELLIS_CACHE, TRELLIS_CACHE_DIR, ...rest } = process.env;
  const out = execFileSync(process.execPath, ['-r', './register.js', '-e', script], { cwd: ROOT, env: { ...rest, ...env }, encoding: 'utf8' });
  return JSON.parse(out) as { json: string; ajv: boolean };
}

const TASK = { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' } }, required: ['id', 'title'] };

describe('response serializers kept as standalone code', () => {
  it('writes the serializer to the project cache once; a later start loads it without fast-json-stringify\'s compiler or ajv', () => {
    const first = shapeInChild(TASK);
    assert.equal(first.json, '{"id":1,"title":"a"}');
    assert.equal(first.ajv, true); // generated: the compiler (and ajv) loaded
    const files = readdirSync(cache).filter((f) => f.endsWith('.js'));
    assert.equal(files.length, 1);
    assert.match(readFileSync(join(cache, files[0]), 'utf8'), /fast-json-stringify\/lib\/serializer/);
    const second = shapeInChild(TASK);
    assert.deepEqual(second, { json: '{"id":1,"title":"a"}', ajv: false });
  });

  it('generates again when the cached code is damaged, and never caches with TRELLIS_CACHE=off', () => {
    const other = { ...TASK, properties: { ...TASK.properties, done: { type: 'boolean' } } };
    shapeInChild(other);
    const written = readdirSync(cache).filter((f) => f.endsWith('.js'));
    for (const f of written) writeFileSync(join(cache, f), 'module.exports = 42');
    assert.equal(shapeInChild(other).json, '{"id":1,"title":"a"}');
    const off = { ...TASK, properties: { ...TASK.properties, note: { type: 'string' } } };
    const before = readdirSync(cache).length;
    assert.deepEqual(shapeInChild(off, { TRELLIS_CACHE: 'off' }), { json: '{"id":1,"title":"a"}', ajv: true });
    assert.equal(readdirSync(cache).length, before);
  });
});
