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

describe('config.yaml rate_limit: under trellis run', () => {
  it('the section limits the project\'s routes, never its health probe or docs', async () => {
    const { app } = loadProject(project('rate_limit:\n  limit: 2\n  window: 30s\n'), { port: 0 });
    const client = new TestClient(app);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await client.get('/tasks')).status);
    assert.deepEqual(statuses, [200, 200, 429]);
    for (let i = 0; i < 3; i++) assert.equal((await client.get('/docs/openapi.json')).status, 200);
    const document = (await client.get('/docs/openapi.json')).json();
    assert.ok(document.paths['/tasks'].get.responses['429']);
    await client.close();
  });

  it('rate_limit: {} means the defaults: 100 a minute', async () => {
    const { app } = loadProject(project('rate_limit: {}\n'), { port: 0 });
    const client = new TestClient(app);
    assert.equal((await client.get('/tasks')).headers['ratelimit-policy'], '"default";q=100;w=60');
    await client.close();
  });

  it('without the section, the routers\' own @RateLimit count (and nothing else is limited)', async () => {
    const dir = healthyWith({
      'routers/limited.ts':
        "import { Get, RateLimit, router } from 'trellis';\n\n" +
        "@RateLimit({ limit: 1, window: '1m' })\nexport class LimitedRouter extends router('/limited') {\n  @Get() one() {\n    return { ok: true };\n  }\n}\n",
    });
    const { app } = loadProject(dir, { port: 0 });
    const client = new TestClient(app);
    assert.deepEqual([(await client.get('/limited')).status, (await client.get('/limited')).status], [200, 429]);
    const tasks = await client.get('/tasks');
    assert.equal(tasks.status, 200);
    assert.equal(tasks.headers.ratelimit, undefined);
    await client.close();
  });

  it('a setting that does not fit stops the start at its line', () => {
    const dir = project('rate_limit:\n  limit: 100\n  trust_proxy: [10.0.0.0/40]\n');
    assert.equal(loadError(dir), `config.yaml:${lineOf(dir, '  trust_proxy: [10.0.0.0/40]')}: rate_limit.trust_proxy must be false, true, a number of proxy hops, or a list of addresses and CIDRs (10.0.0.0/8)`);
  });

  it('store: redis with an empty redis.url stops the start at the section, saying what to do', () => {
    const dir = project('rate_limit:\n  store: redis\nredis:\n  url: ""\n');
    assert.match(loadError(dir), new RegExp(`^config.yaml:${lineOf(dir, 'rate_limit:')}: .*redis.url is empty`));
  });
});
