import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { childrenOf, cleanup, copyFixture, Running } from './run-support';

const running: Running[] = [];
after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  cleanup();
});

/** The healthy fixture plus routes that answer, then fail outside the request (as a stray timer or promise would). */
function projectWithCrashes(): string {
  const dir = copyFixture('healthy');
  writeFileSync(
    join(dir, 'routers', 'crash.ts'),
    "import { Get, router } from 'trellis';\n\n" +
      "export class CrashRouter extends router('/crash') {\n" +
      "  @Get('/timer') timer() {\n" +
      "    setTimeout(() => { throw new Error('boom from a timer'); });\n" +
      '    return { scheduled: true };\n  }\n\n' +
      "  @Get('/rejection') rejection() {\n" +
      "    const later = async () => { throw new Error('boom from a promise'); };\n" +
      '    void later();\n    return { scheduled: true };\n  }\n\n' +
      "  @Get('/slow') async slow() {\n" +
      '    await new Promise((resolve) => setTimeout(resolve, 300));\n' +
      '    return { slow: true };\n  }\n}\n',
  );
  return dir;
}

function start(args: string[], cwd: string): Running {
  const run = new Running(args, cwd);
  running.push(run);
  return run;
}

const accessLines = (stdout: string) => stdout.split('\n').filter((line) => line.includes('"msg":"request"')).map((line) => JSON.parse(line));

describe('trellis run: an error outside any request', () => {
  for (const [route, first] of [
    ['timer', 'trellis: an error was thrown outside any request; stopping, since the process state is unknown (the stack follows)\nError: boom from a timer\n'],
    ['rejection', 'trellis: a promise rejected with no handler; stopping, since the process state is unknown (the stack follows)\nError: boom from a promise\n'],
  ] as const) {
    it(`(${route}) writes every buffered access line, says so in one line plus the stack, and exits 1`, async () => {
      const run = start(['.', '--port', '0'], projectWithCrashes());
      const url = await run.url();
      // Answered within the log's 20 ms batch window, so their lines are still buffered when the error comes.
      const agent = new Agent({ keepAlive: true });
      const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => get(`${url}/tasks?n=${i}`, agent)));
      assert.deepEqual(answers, [200, 200, 200, 200, 200]);
      assert.equal(await get(`${url}/crash/${route}`, agent), 200);
      agent.destroy();

      assert.deepEqual(await run.exited, { code: 1, signal: null });
      assert.ok(run.stderr.startsWith(first), run.stderr);
      assert.match(run.stderr.slice(first.length), /^ {4}at .*routers\/crash\.ts:\d+:\d+/, 'the stack, with the project file');
      assert.deepEqual(
        accessLines(run.stdout).map((line) => `${line.path} ${line.status}`),
        [...Array(5).fill('/tasks 200'), `/crash/${route} 200`],
      );
      await assert.rejects(fetch(`${url}/tasks`), 'nothing listens any more');
    });
  }

  it('lets a request in flight when the error comes finish (up to 1 s), then exits 1', async () => {
    const run = start(['.', '--port', '0'], projectWithCrashes());
    const url = await run.url();
    const slow = get(`${url}/crash/slow`, new Agent());
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(await get(`${url}/crash/timer`, new Agent()), 200);
    assert.equal(await slow, 200);
    assert.deepEqual(await run.exited, { code: 1, signal: null });
    assert.deepEqual(accessLines(run.stdout).map((line) => `${line.path} ${line.status}`), ['/crash/timer 200', '/crash/slow 200']);
  });
});

describe('trellis run --workers: workers that crash', () => {
  it('replaces them with a growing delay while every other request gets an answer or a clean error, never a hang; then serves fully', async () => {
    const run = start(['.', '--port', '0', '--workers', '2'], projectWithCrashes());
    const url = await run.url();
    const workers = async (count: number) => {
      for (let i = 0; i < 100 && childrenOf(run.pid).length !== count; i++) await pause(100);
      return childrenOf(run.pid).length;
    };
    assert.equal(await workers(2), 2);
    // Three crashes (each answered /crash/timer is one), with other clients sending requests all along.
    const deadline = Date.now() + 12_000;
    const crashes: string[] = [];
    const outcomes: string[] = [];
    let crashing = true;
    const crasher = async () => {
      while (crashes.filter((o) => o === '200').length < 3 && Date.now() < deadline) {
        crashes.push(await attempt(`${url}/crash/timer`));
        await pause(100);
      }
      crashing = false;
    };
    const normal = async () => {
      while (crashing) {
        outcomes.push(await attempt(`${url}/tasks`));
        await pause(20);
      }
    };
    await Promise.all([crasher(), normal(), normal(), normal(), normal()]);

    assert.equal(crashes.filter((o) => o === '200').length, 3, `crashes: ${crashes.join(' ')}`);
    // The third worker answered just now: its exit comes a moment later.
    for (let i = 0; i < 50 && !run.stderr.includes('3 crashes in a row'); i++) await pause(100);
    assert.deepEqual(outcomes.filter((o) => o === 'hung'), [], 'no request left hanging');
    assert.deepEqual(outcomes.filter((o) => o !== '200' && !o.startsWith('error ')), [], 'an answer or a connection error');
    assert.match(run.stderr, /^trellis: an error was thrown outside any request; stopping/m);
    assert.match(run.stderr, /^trellis: worker \d+ exited \(1\); starting another in 0\.1 s$/m);
    assert.match(run.stderr, /^trellis: worker \d+ exited \(1\); starting another in 0\.2 s \(2 crashes in a row: waiting longer each time\)$/m);
    assert.match(run.stderr, /^trellis: worker \d+ exited \(1\); starting another in 0\.4 s \(3 crashes in a row: waiting longer each time\)$/m);

    // Back to two workers (the last delay is at most 5 s), answering everything.
    const back = Date.now() + 9_000;
    let served = 0;
    while (served < 20 && Date.now() < back) {
      served = (await attempt(`${url}/tasks`)) === '200' ? served + 1 : 0;
      if (served === 0) await pause(100);
    }
    assert.equal(served, 20, 'service is back');
    assert.equal(await workers(2), 2, 'both workers replaced');

    run.kill('SIGTERM');
    assert.deepEqual(await run.exited, { code: 0, signal: null }, run.stderr);
  });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** GET on a new connection: `200` (the status), `error CODE`, or `hung` when neither comes within 4 s. */
function attempt(url: string): Promise<string> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume().on('end', () => resolve(String(res.statusCode))).on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code}`));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code ?? error.message}`));
    req.setTimeout(4_000, () => {
      resolve('hung');
      req.destroy();
    });
    req.end();
  });
}

/** GET on `agent`, resolving to the status. */
function get(url: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { agent }, (res) => {
      res.resume().on('end', () => resolve(res.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });
}
