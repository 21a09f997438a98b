import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { analyse } from '../doctor/analyse';
import { cleanup, copyFixture, ROOT } from './run-support';

after(cleanup);

// The plug-in docs/guide/plugins.md builds, as a project's plugins/request-counter.ts.
const REQUEST_COUNTER = readFileSync(join(ROOT, 'framework/tests/fixtures/plugins/request-counter.ts'), 'utf8');

function withPlugin(config: string): string {
  const dir = copyFixture('healthy');
  mkdirSync(join(dir, 'plugins'));
  writeFileSync(join(dir, 'plugins', 'request-counter.ts'), REQUEST_COUNTER);
  appendFileSync(join(dir, 'config.yaml'), config);
  return dir;
}

describe('trellis doctor with a plugins/ folder', () => {
  it('lists the plug-in\'s route with the framework\'s own', async () => {
    const report = await analyse(withPlugin('request_counter:\n  path: /internal/requests\n'));
    assert.deepEqual(report.errors, []);
    assert.ok(report.routes.some((row) => row.path === '/internal/requests' && row.builtIn));
  });

  it('reports a section value that does not fit at its line of config.yaml', async () => {
    const dir = withPlugin('request_counter:\n  path: /ok\n  colour: blue\n');
    const line = readFileSync(join(dir, 'config.yaml'), 'utf8').split('\n').indexOf('  colour: blue') + 1;
    const report = await analyse(dir);
    assert.deepEqual(
      report.errors.map((error) => [error.file, error.line, error.message, error.code]),
      [['config.yaml', line, 'request_counter.colour is not a setting of RequestCounterSettings (its settings are path, tag)', 'config']],
    );
  });
});
