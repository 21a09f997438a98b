import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cleanup, copyFixture, freshGet, runCli, Running } from './run-support';

const running: Running[] = [];
after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  cleanup();
});

/**
 * The healthy fixture plus a Database service that writes its constructor and hook calls to hooks.log (and
 * fails its startup when FAIL_STARTUP is set), and a slow route that uses it.
 */
function projectWithDatabase(): { dir: string; calls: () => string[] } {
  const dir = copyFixture('healthy');
  const log = join(dir, 'hooks.log');
  writeFileSync(
    join(dir, 'services', 'database.ts'),
    [
      "import { appendFileSync } from 'node:fs';",
      '',
      `const LOG = ${JSON.stringify(log)};`,
      '',
      'export class Database {',
      "  constructor() { appendFileSync(LOG, 'constructed\\n'); }",
      '',
      '  async onStartup() {',
      "    if (process.env.FAIL_STARTUP) throw new Error('database unreachable');",
      "    appendFileSync(LOG, 'onStartup\\n');",
      '  }',
      '',
      "  async onShutdown() { appendFileSync(LOG, 'onShutdown\\n'); }",
      '',
      '  record(line: string) { appendFileSync(LOG, `${line}\\n`); }',
      '}',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'routers', 'slow.ts'),
    "import { Get, Injectable, router } from 'trellis';\nimport { Database } from '../services/database';\n\n" +
      "@Injectable()\nexport class SlowRouter extends router('/slow') {\n  constructor(private readonly db: Database) { super(); }\n\n" +
      "  @Get() async slow() {\n    await new Promise((resolve) => setTimeout(resolve, 1_500));\n    this.db.record('request finished');\n    return { ok: true };\n  }\n}\n",
  );
  return { dir, calls: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []) };
}

describe('trellis run: lifecycle hooks, readiness and drain', () => {
  it('runs startup hooks before the port opens; on SIGTERM /readyz answers 503 while the request in flight finishes, then shutdown hooks run', async () => {
    const { dir, calls } = projectWithDatabase();
    const config = join(dir, 'config.yaml');
    writeFileSync(config, readFileSync(config, 'utf8').replace('port: 8000 }', 'port: 8000, shutdown_delay: 2000 }'));
    const run = new Running(['.', '--port', '0'], dir);
    running.push(run);
    const url = await run.url();
    assert.deepEqual(calls(), ['constructed', 'onStartup']);
    const ready = await freshGet(`${url}/readyz`);
    assert.deepEqual([ready.status, JSON.parse(ready.text).status], [200, 'ready']);
    const slow = freshGet(`${url}/slow`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    run.kill('SIGTERM');
    await run.waitFor(/Shutting down \(SIGTERM\)/);
    const draining = await freshGet(`${url}/readyz`);
    assert.deepEqual([draining.status, JSON.parse(draining.text)], [503, { error: 'Service Unavailable', status: 'draining', checks: {} }]);
    assert.equal((await freshGet(`${url}/healthz`)).status, 200);
    assert.deepEqual(await slow, { status: 200, text: '{"ok":true}' });
    assert.deepEqual(await run.exited, { code: 0, signal: null });
    assert.deepEqual(calls(), ['constructed', 'onStartup', 'request finished', 'onShutdown']);
    assert.match(run.stdout, /"hook":"Database\.onShutdown\(\)".*"msg":"shutdown hook finished"/);
    assert.match(run.stdout, /Stopped\.\n$/);
  });

  it('stops the start when a startup hook fails: one line naming the service, its message and line, exit 1, no port', async () => {
    const { dir, calls } = projectWithDatabase();
    const run = await runCli(['run', '.', '--port', '0'], { cwd: dir, env: { FAIL_STARTUP: '1' } });
    assert.equal(run.code, 1);
    assert.equal(run.stderr, 'trellis: services/database.ts:9: Database.onStartup() failed: database unreachable\n');
    assert.doesNotMatch(run.stdout, /Running app/);
    assert.deepEqual(calls(), ['constructed']);
  });

  it('doctor runs no hook and builds no service that has them (nor what needs one)', async () => {
    const { dir, calls } = projectWithDatabase();
    const doctor = await runCli(['doctor', '.'], { cwd: dir });
    assert.equal(doctor.code, 0, doctor.stdout);
    assert.match(doctor.stdout, /GET {5}\/slow +SlowRouter\.slow/);
    assert.deepEqual(calls(), []);
  });

  it('an interface-typed constructor parameter stops run and doctor at its class, naming the parameter and the fix', async () => {
    const dir = copyFixture('healthy');
    writeFileSync(
      join(dir, 'routers', 'clock.ts'),
      "import { Get, Injectable, router } from 'trellis';\n\ninterface Clock {\n  now(): Date;\n}\n\n" +
        "@Injectable()\nexport class ClockRouter extends router('/clock') {\n  constructor(private readonly clock: Clock) { super(); }\n\n  @Get() now() { return { now: this.clock.now() }; }\n}\n",
    );
    const message = 'ClockRouter constructor parameter 1 (clock) is typed with an interface or object type (TypeScript records Object for it), which cannot be injected by type';
    const run = await runCli(['run', '.', '--port', '0'], { cwd: dir });
    assert.equal(run.code, 1);
    assert.match(run.stderr, new RegExp(`^trellis: routers/clock\\.ts:8: ${escape(message)}: give it a class type, or name what it receives with @Inject\\(TOKEN\\)`));
    const doctor = await runCli(['doctor', '.'], { cwd: dir });
    assert.equal(doctor.code, 1);
    assert.match(doctor.stdout, new RegExp(`error {3}routers/clock\\.ts:8: ${escape(message)}.* \\[TRELLIS_ERR_UNINJECTABLE_PARAMETER\\]`));
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
