import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cleanup, copyFixture, http, ROOT, runCli, Running } from './run-support';

// The plug-in docs/guide/plugins.md builds, dropped into a project's plugins/ folder as a user would.
const REQUEST_COUNTER = readFileSync(join(ROOT, 'framework/tests/fixtures/plugins/request-counter.ts'), 'utf8');
// A start compiles the project and reads its sources' types: 10-20 s on a busy 2-core machine.
const STARTED_WITHIN_MS = 180_000;

const running: Running[] = [];
after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  cleanup();
});

function project(section: string): string {
  const dir = copyFixture('healthy');
  mkdirSync(join(dir, 'plugins'), { recursive: true });
  writeFileSync(join(dir, 'plugins', 'request-counter.ts'), REQUEST_COUNTER);
  appendFileSync(join(dir, 'config.yaml'), section);
  return dir;
}

describe('trellis run with a plugins/ folder', () => {
  it('registers the plug-in: its config.yaml section, middleware, route, OpenAPI tag and shutdown hook', async () => {
    const dir = project('request_counter:\n  path: /internal/requests\n  tag: ops\n');
    const run = new Running(['.', '--host', '127.0.0.1', '--port', '0'], dir);
    running.push(run);
    const url = await run.url(STARTED_WITHIN_MS);

    assert.equal((await http(`${url}/tasks`)).status, 200);
    assert.equal((await http(`${url}/no/such/path`)).status, 404);
    const counts = await http(`${url}/internal/requests`);
    assert.equal(counts.status, 200);
    assert.deepEqual(JSON.parse(counts.text).counts, { 200: 1, 404: 1 });

    const openapi = JSON.parse((await http(`${url}/docs/openapi.json`)).text);
    assert.deepEqual(openapi.paths['/internal/requests'].get.tags, ['ops']);
    assert.deepEqual(openapi.tags.find((tag: { name: string }) => tag.name === 'ops'), { name: 'ops', description: 'What the app has answered' });

    run.kill('SIGTERM');
    assert.deepEqual(await run.exited, { code: 0, signal: null }, run.stderr);
    assert.match(run.stdout + run.stderr, /requests counted/);
  });

  it('refuses to start, in one line naming the config.yaml line, when the section does not fit', async () => {
    const dir = project('request_counter:\n  path: not-a-path\n');
    const line = readFileSync(join(dir, 'config.yaml'), 'utf8').split('\n').indexOf('  path: not-a-path') + 1;
    const result = await runCli(['run', '.', '--port', '0'], { cwd: dir, timeoutMs: STARTED_WITHIN_MS });
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, new RegExp(`config\\.yaml:${line}: request_counter\\.path must match`));
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
  });
});
