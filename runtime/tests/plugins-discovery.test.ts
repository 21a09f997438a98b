import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { TestClient } from '../../framework/testing';
import { discover } from '../discover';
import { loadBuild } from '../load-build';
import { createManifest, MANIFEST_FILE } from '../manifest';
import { loadProject } from '../load';
import { cleanup, ROOT } from './support';
import { healthyWith, loadError } from './project-support';

after(cleanup);

// The plug-in docs/guide/plugins.md builds, as a project's plugins/request-counter.ts.
const REQUEST_COUNTER = readFileSync(join(ROOT, 'framework/tests/fixtures/plugins/request-counter.ts'), 'utf8');

/** A copy of the healthy fixture with `files` written into it and `config` appended to its config.yaml. */
function project(files: Record<string, string>, config = ''): string {
  const dir = healthyWith(files);
  appendFileSync(join(dir, 'config.yaml'), config);
  return dir;
}

describe('a project\'s plugins/ folder', () => {
  it('is discovered and registered: the plug-in reads its config.yaml section, serves its route and counts requests', async () => {
    const dir = project({ 'plugins/request-counter.ts': REQUEST_COUNTER }, 'request_counter:\n  path: /internal/requests\n');
    const found = discover(dir);
    assert.deepEqual(found.failures, []);
    assert.deepEqual(found.plugins?.map(({ plugin, file }) => [plugin.name, file]), [['request-counter', 'plugins/request-counter.ts']]);

    const { app } = loadProject(dir, { port: 0 });
    const client = new TestClient(app);
    assert.equal((await client.get('/tasks')).status, 200);
    const counts = await client.get('/internal/requests');
    assert.equal(counts.status, 200);
    assert.deepEqual(counts.json().counts, { 200: 1 });
    assert.ok(app.routes.some((route) => route.path === '/internal/requests' && route.builtIn));
    await client.close();
  });

  it('is listed in a build\'s manifest, and a build registers what it lists', async () => {
    const dir = project({ 'plugins/request-counter.ts': REQUEST_COUNTER }, 'request_counter:\n  path: /internal/requests\n');
    const manifest = createManifest(dir, discover(dir), { trellis: '0.0.0', docComments: {} });
    assert.deepEqual(manifest.plugins, [{ file: 'plugins/request-counter.ts', classes: ['default'] }]);
    // The routers' response types come from the sources, which a hand-made build has not read: served without them.
    writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify({ ...manifest, routers: [] }));
    const { app } = loadBuild(dir, { port: 0 });
    const client = new TestClient(app);
    assert.equal((await client.get('/internal/requests')).status, 200);
    await client.close();
  });

  it('stops the start at the line of a section value that does not fit', () => {
    const dir = project({ 'plugins/request-counter.ts': REQUEST_COUNTER }, 'request_counter:\n  path: 42\n');
    const lines = readFileSync(join(dir, 'config.yaml'), 'utf8').split('\n');
    const line = lines.indexOf('  path: 42') + 1;
    assert.equal(loadError(dir), `config.yaml:${line}: request_counter.path must match /^(\\/[a-z0-9_-]+)+$/ regular expression; request_counter.path must be a string`);
  });

  it('refuses a module that exports no plug-in, and a plug-in whose register throws, at its file', () => {
    const factoryOnly = project({ 'plugins/request-counter.ts': REQUEST_COUNTER.replace('export default requestCounter();\n', '') });
    assert.match(loadError(factoryOnly), /^plugins\/request-counter\.ts:1: plugins\/request-counter\.ts exports no plug-in/);

    const throwing = project({
      'plugins/broken.ts': "export default {\n  name: 'broken',\n  register() {\n    throw new Error('no database url');\n  },\n};\n",
    });
    assert.equal(loadError(throwing), 'plugins/broken.ts:4: Plug-in broken failed to register: no database url');
  });
});
