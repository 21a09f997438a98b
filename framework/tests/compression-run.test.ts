import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { loadProject } from '../../runtime/load';
import { healthyWith, loadError } from '../../runtime/tests/project-support';
import { cleanup } from '../../runtime/tests/support';
import { TestClient } from '../testing';

after(cleanup);

/** A copy of the runtime's healthy fixture project with `config` appended to its config.yaml. */
function project(config: string): string {
  const dir = healthyWith({});
  appendFileSync(join(dir, 'config.yaml'), config);
  return dir;
}

describe('config.yaml compression: under trellis run', () => {
  it('the section turns the plug-in on with its settings', async () => {
    const { app } = loadProject(project('compression:\n  threshold: 0\n  encodings: [gzip]\n  gzip_level: 1\n'), { port: 0 });
    const client = new TestClient(app);
    const res = await client.get('/tasks', { headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.ok(Array.isArray(JSON.parse(gunzipSync(res.body).toString())));
    await client.close();
  });

  it('compression: {} means the defaults: the OpenAPI document goes out as brotli', async () => {
    const { app } = loadProject(project('compression: {}\n'), { port: 0 });
    const client = new TestClient(app);
    const res = await client.get('/docs/openapi.json', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    assert.equal(res.headers['content-encoding'], 'br');
    assert.equal(JSON.parse(brotliDecompressSync(res.body).toString()).openapi.startsWith('3.'), true);
    await client.close();
  });

  it('no section, no compression', async () => {
    const { app } = loadProject(project(''), { port: 0 });
    const client = new TestClient(app);
    const res = await client.get('/docs/openapi.json', { headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(res.headers['content-encoding'], undefined);
    await client.close();
  });

  it('a setting that does not fit stops the start at its line', () => {
    const dir = project('compression:\n  brotli_quality: 12\n');
    const line = readFileSync(join(dir, 'config.yaml'), 'utf8').split('\n').indexOf('  brotli_quality: 12') + 1;
    assert.equal(loadError(dir), `config.yaml:${line}: compression.brotli_quality must not be greater than 11`);
  });
});
