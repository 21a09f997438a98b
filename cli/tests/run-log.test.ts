import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { BIN, childrenOf, cleanup, copyFixture, FIXTURES, http, ROOT, Running } from './run-support';

const running: Running[] = [];
after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  cleanup();
});

/** The healthy fixture plus a router whose handlers log through request.log and throw. */
function projectThatLogs(): string {
  const dir = copyFixture('healthy');
  writeFileSync(
    join(dir, 'routers', 'logs.ts'),
    "import { Get, router, type Request } from 'trellis';\nimport { Req } from 'trellis/param';\n\n" +
      "export class LogRouter extends router('/logs') {\n" +
      "  @Get('/info') info(@Req() request: Request) {\n" +
      "    request.log.info({ taskId: 7 }, 'task read');\n" +
      '    return { ok: true };\n  }\n\n' +
      "  @Get('/boom') boom() {\n    throw new Error('boom');\n  }\n}\n",
  );
  return dir;
}

describe('the log of trellis run', () => {
  it("writes handlers' request.log lines and unexpected errors as JSON lines carrying the reqId of the request's access line", async () => {
    const run = new Running(['.', '--port', '0'], projectThatLogs());
    running.push(run);
    const url = await run.url();
    const info = await http(`${url}/logs/info`);
    const boom = await http(`${url}/logs/boom`);
    assert.deepEqual([info.status, boom.status], [200, 500]);
    const [infoId, boomId] = [info.headers.get('x-request-id')!, boom.headers.get('x-request-id')!];
    run.kill('SIGTERM');
    assert.deepEqual(await run.exited, { code: 0, signal: null });
    assert.equal(run.stderr, '');

    const lines = run.stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
    const about = (reqId: string) => lines.filter((line) => line.reqId === reqId).map(({ time, ms, err, ...line }) => ({ ...line, ...(err && { err: [err.type, err.message] }) }));
    assert.deepEqual(about(infoId), [
      { level: 30, reqId: infoId, taskId: 7, msg: 'task read' },
      { level: 30, method: 'GET', path: '/logs/info', status: 200, reqId: infoId, msg: 'request' },
    ]);
    assert.deepEqual(about(boomId), [
      { level: 50, err: ['Error', 'boom'], reqId: boomId, msg: 'GET /logs/boom failed' },
      { level: 30, method: 'GET', path: '/logs/boom', status: 500, reqId: boomId, msg: 'request' },
    ]);
    assert.match(lines.find((line) => line.level === 50).err.stack, /^Error: boom\n {4}at .*routers\/logs\.ts:\d+:\d+/);
  });

  it('writes pino-pretty lines on a terminal (script(1) gives it one), the banner and shutdown lines as before', async () => {
    const healthy = relative(ROOT, join(FIXTURES, 'healthy'));
    // script(1) runs the command with $SHELL -c; `exec` makes trellis the shell's own process whatever the shell
    // (dash, CI's /bin/sh, keeps itself between them otherwise), so the SIGTERM below reaches trellis itself.
    const command = 'exec ' + [process.execPath, BIN, 'run', healthy, '--port', '0'].map((word) => `'${word}'`).join(' ');
    const terminal = spawn('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: { ...process.env, SHELL: '/bin/sh' } });
    let output = '';
    terminal.stdout.on('data', (chunk) => (output += chunk));
    const closed = new Promise<number | null>((resolve) => terminal.on('close', resolve));
    // What the terminal shows: no colours, no carriage returns.
    const shown = () => output.replace(/\u001b\[[0-9;]*m/g, '').replace(/\r/g, '');
    const waitFor = async (pattern: RegExp) => {
      for (let i = 0; i < 300 && !pattern.test(shown()); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      return shown().match(pattern) ?? assert.fail(`no ${pattern} in:\n${shown()}`);
    };
    try {
      const [, url] = await waitFor(/Running app .+ on (http:\/\/\S+)\n[^]*for a more detailed analysis\.\n/);
      const missing = await http(`${url}/tasks/99?secret=1`);
      assert.equal(missing.status, 404);
      const reqId = missing.headers.get('x-request-id')!;
      assert.match(reqId, /^[0-9a-f]{6}-[0-9a-z]{1,5}$/);
      const [line] = await waitFor(new RegExp(`^.*"reqId":"${reqId}".*\\n`, 'm'));
      assert.match(line, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: request \{"method":"GET","path":"\/tasks\/99","status":404,"ms":[\d.]+,"reqId":"[0-9a-f]{6}-[0-9a-z]{1,5}"\}\n$/);
      for (const pid of childrenOf(terminal.pid!)) process.kill(pid, 'SIGTERM');
      assert.equal(await closed, 0);
      assert.match(shown(), /\nShutting down \(SIGTERM\): finishing requests in flight\nStopped\.\n$/);
    } finally {
      terminal.kill('SIGKILL');
    }
  });
});
