import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { LISTEN_DEFAULTS } from '../../framework/server';
import { checkConfig } from '../../runtime/config';
import { cleanup, copyFixture, Running } from './run-support';

const running: Running[] = [];
after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  cleanup();
});

const issues = (server: Record<string, unknown>) => checkConfig(undefined, { server }).issues.map((issue) => issue.message);

/** Everything the server sends on a new connection after `request`, until it closes it. */
function exchange(port: number, request: string): Promise<{ socket: Socket; text: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(request);
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('error', () => {});
      resolve({ socket, text: new Promise((done) => socket.once('close', () => done(text))) });
    });
    socket.once('error', reject);
  });
}

describe('config.yaml server.body_timeout, send_timeout, max_connections', () => {
  it("defaults to listen()'s 30 s, 30 s and 1,000 connections, and takes positive whole numbers", () => {
    const { server } = checkConfig(undefined, {}).settings;
    assert.deepEqual([server.body_timeout, server.send_timeout, server.max_connections], [30_000, 30_000, 1_000]);
    assert.deepEqual({ ...LISTEN_DEFAULTS }, { bodyTimeout: server.body_timeout, sendTimeout: server.send_timeout, maxConnections: server.max_connections });
    const given = checkConfig(undefined, { server: { body_timeout: 5_000, send_timeout: 10_000, max_connections: 50 } });
    assert.deepEqual(given.issues, []);
    assert.deepEqual([given.settings.server.body_timeout, given.settings.server.send_timeout, given.settings.server.max_connections], [5_000, 10_000, 50]);
    assert.deepEqual(issues({ body_timeout: 0, send_timeout: '60s', max_connections: -5 }), [
      'server.body_timeout must be a positive whole number, got 0',
      'server.send_timeout must be a positive whole number, got "60s"',
      'server.max_connections must be a positive whole number, got -5',
    ]);
  });

  it('reach the server started by trellis run', async () => {
    const dir = copyFixture('healthy');
    const config = readFileSync(join(dir, 'config.yaml'), 'utf8').replace(
      'server: { host: 127.0.0.1, port: 8000 }',
      'server: { host: 127.0.0.1, port: 0, max_connections: 1, body_timeout: 300 }',
    );
    writeFileSync(join(dir, 'config.yaml'), config);
    const run = new Running(['.', '--no-access-log'], dir);
    running.push(run);
    const port = Number(new URL(await run.url()).port);

    // One connection sends half a body: the only place is taken until body_timeout answers it.
    const first = await exchange(port, 'POST /tasks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{"ti');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await exchange(port, 'GET /tasks HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.equal(await second.text, '', 'a connection above max_connections is closed unanswered');
    assert.match(await first.text, /^HTTP\/1\.1 408 [^]*\{"error":"Request Timeout"\}$/);
    run.kill();
    assert.equal((await run.exited).code, 0);
  });
});
