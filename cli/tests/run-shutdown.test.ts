import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cleanup, copyFixture, runCli, Running } from './run-support';

const running: Running[] = [];
after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  cleanup();
});

/** The healthy fixture plus a route that never answers. */
function projectWithHang(): string {
  const dir = copyFixture('healthy');
  writeFileSync(
    join(dir, 'routers', 'hang.ts'),
    "import { Get, router } from 'trellis';\n\nexport class HangRouter extends router('/hang') {\n" +
      '  @Get() wait() {\n    return new Promise(() => {});\n  }\n}\n',
  );
  return dir;
}

/** Sends GET `url` and resolves once the request is in the server's hands; `ended` settles when the socket does. */
async function inFlight(url: string, headers: Record<string, string> = {}): Promise<{ ended: Promise<string> }> {
  let ended!: Promise<string>;
  await new Promise<void>((sent) => {
    ended = new Promise((resolve) => {
      const req = request(url, { agent: false, headers }, (res) => resolve(`answered ${res.statusCode}`));
      req.on('error', (error: NodeJS.ErrnoException) => resolve(`cut: ${error.code ?? error.message}`));
      req.end(() => setTimeout(sent, 150)); // written; the server reads it well within 150 ms
    });
  });
  return { ended };
}

function start(args: string[], cwd: string, env: NodeJS.ProcessEnv): Running {
  const run = new Running(args, cwd, env);
  running.push(run);
  return run;
}

describe('trellis run: stopping with requests that do not finish', () => {
  it('cuts them off when the grace period ends and exits 1, saying so in one line', async () => {
    const dir = projectWithHang();
    const run = start(['.', '--port', '0'], dir, { TRELLIS_SHUTDOWN_GRACE_MS: '300' });
    const url = await run.url();
    const hanging = await inFlight(`${url}/hang`);
    const signalled = Date.now();
    run.kill('SIGTERM');
    assert.match(await hanging.ended, /^cut: /);
    assert.deepEqual(await run.exited, { code: 1, signal: null });
    assert.ok(Date.now() - signalled < 5_000, 'stopped soon after the grace period');
    assert.equal(run.stderr, 'trellis: requests still running after the 0.3 s grace period were cut off\n');
    assert.match(run.stdout, /\nShutting down \(SIGTERM\): finishing requests in flight\n(.*\n)*Stopped\.\n$/);
    assert.match(run.stdout, /"method":"GET","path":"\/hang","status":499/, 'the cut request is logged as 499');
  });

  it('exits 0 when every request finishes within the grace period', async () => {
    const dir = copyFixture('healthy');
    const run = start(['.', '--port', '0'], dir, { TRELLIS_SHUTDOWN_GRACE_MS: '2000' });
    const url = await run.url();
    const slow = await inFlight(`${url}/admin/slow?ms=400`, { authorization: 'Bearer fixture-token' });
    run.kill('SIGINT');
    assert.equal(await slow.ended, 'answered 200');
    assert.deepEqual(await run.exited, { code: 0, signal: null });
    assert.equal(run.stderr, '');
  });

  it('cuts them off at a second signal and exits 1', async () => {
    const dir = projectWithHang();
    const run = start(['.', '--port', '0'], dir, {});
    const url = await run.url();
    const hanging = await inFlight(`${url}/hang`);
    run.kill('SIGINT');
    await run.waitFor(/Shutting down \(SIGINT\)/);
    run.kill('SIGINT');
    assert.match(await hanging.ended, /^cut: /);
    assert.deepEqual(await run.exited, { code: 1, signal: null });
    assert.equal(run.stderr, 'trellis: a second signal cut off the requests still running\n');
  });

  it('exits 1 from the primary, reporting once, when workers had to cut requests off', async () => {
    const dir = projectWithHang();
    const run = start(['.', '--port', '0', '--workers', '2'], dir, { TRELLIS_SHUTDOWN_GRACE_MS: '300' });
    const url = await run.url();
    const hanging = await inFlight(`${url}/hang`);
    run.kill('SIGTERM');
    assert.match(await hanging.ended, /^cut: /);
    assert.deepEqual(await run.exited, { code: 1, signal: null });
    assert.equal(run.stderr, 'trellis: requests still running after the 0.3 s grace period were cut off\n');
  });

  it('refuses a grace period that is not a whole number of milliseconds', async () => {
    const dir = copyFixture('healthy');
    const result = await runCli(['run', '.', '--port', '0'], { cwd: dir, env: { TRELLIS_SHUTDOWN_GRACE_MS: '2s' } });
    assert.deepEqual([result.code, result.stdout], [1, '']);
    assert.equal(result.stderr, 'trellis: TRELLIS_SHUTDOWN_GRACE_MS must be a whole number of milliseconds, got "2s"\n');
  });
});
