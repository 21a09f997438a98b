import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { version } from '../../package.json';
import { childrenOf, cleanup, copyFixture, FIXTURES, freePort, freshGet, http, listenOn, ROOT, runCli, Running } from './run-support';

const running: Running[] = [];
const start = (args: string[], cwd?: string) => {
  const run = new Running(args, cwd);
  running.push(run);
  return run;
};
after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  cleanup();
});

const healthy = relative(ROOT, join(FIXTURES, 'healthy'));

describe('trellis run (a real process)', () => {
  it('prints the banner, serves over HTTP, logs each request, and stops on SIGTERM with a request in flight finishing', async () => {
    const run = start([healthy, '--port', '0']);
    const url = await run.url();
    const port = Number(new URL(url).port);
    assert.ok(port > 0);
    assert.equal(
      run.stdout,
      [
        `trellis ${version}`,
        `Running app ${healthy} on http://127.0.0.1:${port}`,
        `  Config:      ${healthy}/config.yaml`,
        '  Routers:     2 discovered',
        `  Static:      ${healthy}/static`,
        `  Templates:   ${healthy}/templates`,
        '  Middleware:  2 loaded',
        `Run \`trellis doctor ${healthy}\` for a more detailed analysis.`,
        '',
      ].join('\n'),
    );

    const tasks = await http(`${url}/tasks`);
    assert.equal(tasks.status, 200);
    assert.deepEqual(JSON.parse(tasks.text), [{ id: 1, title: 'First' }]);
    const missing = await http(`${url}/tasks/99?secret=1`);
    assert.equal(missing.status, 404);
    const reqId = missing.headers.get('x-request-id');

    const log = await run.waitFor(/\{[^\n]*"path":"\/tasks\/99"[^\n]*\}\n/);
    const line = JSON.parse(log[0]);
    assert.deepEqual(
      { method: line.method, path: line.path, status: line.status, reqId: line.reqId, msg: line.msg, level: line.level },
      { method: 'GET', path: '/tasks/99', status: 404, reqId, msg: 'request', level: 30 },
    );
    assert.equal(typeof line.ms, 'number');
    assert.equal(typeof line.time, 'number');
    assert.doesNotMatch(run.stdout, /secret/, 'the query string is not logged');
    assert.match(run.stdout, /"method":"GET","path":"\/tasks","status":200/);

    // 1.5 s: the SIGTERM 200 ms after must arrive while it is in flight even on a loaded CI machine.
    const slow = http(`${url}/admin/slow?ms=1500`, { headers: { authorization: 'Bearer fixture-token' } });
    await new Promise((resolve) => setTimeout(resolve, 200)); // received, 1.3 s from its answer
    run.kill('SIGTERM');
    const answered = await slow;
    assert.equal(answered.status, 200);
    assert.deepEqual(JSON.parse(answered.text), { waited: 1500 });
    assert.deepEqual(await run.exited, { code: 0, signal: null });
    // The request in flight ends after the shutdown began, and is logged before the last line.
    assert.match(run.stdout, /\nShutting down \(SIGTERM\): finishing requests in flight\n\{[^\n]*"path":"\/admin\/slow","status":200[^\n]*\}\nStopped\.\n$/);
    assert.equal(run.stderr, '');
    await assert.rejects(fetch(`${url}/tasks`), 'nothing listens any more');
  });

  it('stops on SIGINT too, and takes host and port from config.yaml unless flags say otherwise', async () => {
    const dir = copyFixture('healthy');
    const free = await freePort();
    writeFileSync(join(dir, 'config.yaml'), `server: { host: 127.0.0.1, port: ${free} }\nmiddleware: [timing]\nadmin: { token: t }\n`);
    const run = start(['.'], dir);
    assert.equal(await run.url(), `http://127.0.0.1:${free}`);
    assert.match(run.stdout, /^Running app \. on /m);
    assert.match(run.stdout, /^ {2}Config: {6}config\.yaml$/m);
    assert.equal((await http(`http://127.0.0.1:${free}/tasks`)).status, 200);
    run.kill('SIGINT');
    assert.deepEqual(await run.exited, { code: 0, signal: null });

    const flagged = start(['.', '--host', 'localhost', '--port', '0'], dir);
    const url = await flagged.url();
    assert.match(url, /^http:\/\/localhost:\d+$/);
    assert.notEqual(new URL(url).port, String(free));
    assert.equal((await http(`${url}/tasks`)).status, 200);
    flagged.kill();
    assert.equal((await flagged.exited).code, 0);
  });

  it('logs no request lines with --no-access-log or server.access_log: false; --access-log wins over the config', async () => {
    const served = async (args: string[], dir: string) => {
      const run = start(args, dir);
      const url = await run.url();
      assert.equal((await http(`${url}/tasks`)).status, 200);
      assert.equal((await http(`${url}/tasks/99`)).status, 404);
      run.kill('SIGTERM');
      assert.deepEqual(await run.exited, { code: 0, signal: null });
      return run.stdout.split('\n').filter((line) => line.includes('"msg":"request"')).length;
    };
    const dir = copyFixture('healthy');
    assert.equal(await served(['.', '--port', '0', '--no-access-log'], dir), 0);
    writeFileSync(join(dir, 'config.yaml'), 'server: { access_log: false }\nmiddleware: [timing]\nadmin: { token: t }\n');
    assert.equal(await served(['.', '--port', '0'], dir), 0);
    assert.equal(await served(['.', '--port', '0', '--access-log'], dir), 2);
  });

  it('stops (and doctor finishes) even when project code keeps a timer running', async () => {
    const dir = copyFixture('healthy');
    writeFileSync(join(dir, 'services', 'ticker.ts'), 'export class Ticker {\n  readonly timer = setInterval(() => {}, 1000);\n}\n');
    writeFileSync(
      join(dir, 'routers', 'ticks.ts'),
      "import { Get, Injectable, router } from 'trellis';\nimport { Ticker } from '../services/ticker';\n" +
        "@Injectable()\nexport class TickRouter extends router('/ticks') {\n  constructor(readonly ticker: Ticker) { super(); }\n  @Get() list() { return []; }\n}\n",
    );
    const run = start(['.', '--port', '0'], dir);
    assert.equal((await http(`${await run.url()}/ticks`)).status, 200);
    run.kill('SIGTERM');
    assert.deepEqual(await run.exited, { code: 0, signal: null });
    const doctor = await runCli(['doctor', '.'], { cwd: dir, timeoutMs: 15_000 });
    assert.equal(doctor.code, 0, doctor.stderr);
  });

  it('says in one line that a port is taken, suggesting --port, and exits 1', async () => {
    const blocker = await listenOn(0);
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await runCli(['run', healthy, '--port', String(port)]);
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      assert.equal(
        result.stderr,
        `trellis: port ${port} is already in use on 127.0.0.1; choose another with --port (e.g. --port ${port + 1}, or --port 0 for any free port)\n`,
      );
    } finally {
      blocker.close();
    }
  });

  it('refuses a router file that fails to load with its file, line and message on one line', async () => {
    const dir = copyFixture('healthy');
    writeFileSync(join(dir, 'routers', 'broken.ts'), "import { router } from 'trellis';\n\nexport class Broken extends router('/b') {\n  x = ;\n}\n");
    const result = await runCli(['run', '.', '--port', '0'], { cwd: dir });
    assert.deepEqual([result.code, result.stdout], [1, '']);
    assert.equal(result.stderr, 'trellis: routers/broken.ts:4: SyntaxError: Expression expected\n');
  });

  it('refuses a config.yaml error naming the file, line and key', async () => {
    const dir = copyFixture('healthy');
    writeFileSync(join(dir, 'config.yaml'), 'app:\n  title: x\nserver:\n  port: 80.5\n');
    const result = await runCli(['run', dir]);
    assert.deepEqual([result.code, result.stdout], [1, '']);
    assert.equal(result.stderr, `trellis: ${dir}/config.yaml:4: server.port must be an integer from 0 to 65535, got 80.5\n`);
  });

  it('refuses bad flags in one line', async () => {
    for (const [args, message] of [
      [['--port', 'http'], '--port must be an integer from 0 to 65535, got "http"'],
      [['--port', '65536'], '--port must be an integer from 0 to 65535, got "65536"'],
      [['--workers', 'two'], '--workers must be an integer from 1 to 256, got "two"'],
      [['--host', 'a b'], '--host is not a host name or address: "a b"'],
      [['--verbose'], "unknown option '--verbose'"],
    ] as const) {
      const result = await runCli(['run', healthy, ...args]);
      assert.deepEqual([result.code, result.stderr], [1, `trellis: ${message}\n`], args.join(' '));
    }
  });

  it('runs several workers on one port with --workers, printing the banner once, replacing a dead one, and stops them all', async () => {
    const run = start([healthy, '--port', '0', '--workers', '2']);
    const url = await run.url();
    assert.match(run.stdout, /^ {2}Workers: {5}2, each with its own services \(TaskService\): state kept in memory is not shared$/m);
    const workers = async (count: number) => {
      for (let i = 0; i < 100 && childrenOf(run.pid).length !== count; i++) await new Promise((r) => setTimeout(r, 100));
      return childrenOf(run.pid);
    };
    const [first, second] = await workers(2);
    assert.ok(first && second);
    const answers = await Promise.all(Array.from({ length: 20 }, () => http(`${url}/tasks`)));
    assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([200]));

    process.kill(first, 'SIGKILL');
    for (let i = 0; i < 100 && !run.stderr.includes('starting another'); i++) await new Promise((r) => setTimeout(r, 100));
    const replaced = await workers(2);
    assert.equal(run.stderr, `trellis: worker ${first} exited (signal); starting another in 0.1 s\n`);
    assert.ok(!replaced.includes(first));
    // The replacement listens on the same port (a request may be refused while no worker is up).
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = await freshGet(`${url}/tasks`).then((r) => r.status, () => 0);
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 200);
    assert.equal(run.stdout.match(/^trellis /gm)?.length, 1, 'one banner');

    run.kill('SIGTERM');
    assert.deepEqual(await run.exited, { code: 0, signal: null });
    assert.deepEqual(childrenOf(run.pid), []);
    await assert.rejects(fetch(`${url}/tasks`));
  });

  it('reports a worker startup error once and exits 1', async () => {
    const blocker = await listenOn(0);
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await runCli(['run', healthy, '--port', String(port), '--workers', '2']);
      assert.equal(result.code, 1);
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
      assert.match(result.stderr, /^trellis: port \d+ is already in use/);
    } finally {
      blocker.close();
    }
  });
});
