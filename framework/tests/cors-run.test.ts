import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
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

const lineOf = (dir: string, text: string) => readFileSync(join(dir, 'config.yaml'), 'utf8').split('\n').indexOf(text) + 1;

describe('config.yaml cors: and etag: under trellis run', () => {
  it('the sections turn CORS and ETags on', async () => {
    const { app } = loadProject(project('cors:\n  origins: [http://localhost:5173]\n  max_age: 60\netag: true\n'), { port: 0 });
    const client = new TestClient(app);
    const pre = await client.options('/tasks', { headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers['access-control-allow-origin'], 'http://localhost:5173');
    assert.equal(pre.headers['access-control-max-age'], '60');
    const res = await client.get('/tasks', { headers: { origin: 'http://localhost:5173' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['access-control-allow-origin'], 'http://localhost:5173');
    assert.match(String(res.headers.etag), /^W\//);
    const again = await client.get('/tasks', { headers: { 'if-none-match': String(res.headers.etag) } });
    assert.equal(again.status, 304);
    await client.close();
  });

  it("credentials with origin '*' stops the start at the credentials line, naming the code", () => {
    const dir = project("cors:\n  origins: '*'\n  credentials: true\n");
    const error = loadError(dir);
    assert.match(error, new RegExp(`^config\\.yaml:${lineOf(dir, '  credentials: true')}: cors\\.credentials: `));
    assert.match(error, /TRELLIS_ERR_CORS_CREDENTIALS/);
  });

  it('an origin with a trailing slash stops the start at the origins line', () => {
    const dir = project('cors:\n  origins: [http://localhost:5173/]\n');
    assert.match(loadError(dir), new RegExp(`^config\\.yaml:${lineOf(dir, '  origins: [http://localhost:5173/]')}: cors\\.origins: .*trailing slash`));
  });

  it('etag: with another value stops the start at its line', () => {
    const dir = project('etag: sometimes\n');
    assert.equal(loadError(dir), `config.yaml:${lineOf(dir, 'etag: sometimes')}: etag: Invalid etag setting "sometimes": give true (ETags on every GET route's JSON answers) or false (only on routes marked @ETag())`);
  });
});
