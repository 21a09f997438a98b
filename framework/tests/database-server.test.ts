import assert from 'node:assert/strict';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { BaseRouter } from '../index';
import { database } from '../database';
import { TrellisError } from '../framework-error';
import { TestClient } from '../testing';
import { capturedLog, silentLogger } from './fixtures/captured-log';
import { serverDatabase, type TestTarget } from './support/database';

/** A TCP proxy to the test server that the test can cut (every connection dropped, the port closed) and bring back on the same port. */
class Proxy {
  #server: Server | undefined;
  readonly #sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.#server = server;
  }

  async cut(): Promise<void> {
    const server = this.#server!;
    this.#server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    await closed;
  }
}

/** Asks `path` until it answers `status`: the health check's state follows the proxy within a few requests. */
async function until(client: TestClient, path: string, status: number): Promise<{ status: number; json(): any }> {
  const deadline = performance.now() + 20_000;
  for (;;) {
    const res = await client.get(path);
    if (res.status === status || performance.now() > deadline) return res;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('database() on a PostgreSQL server', () => {
  let target: TestTarget;
  before(async () => (target = await serverDatabase()));
  after(() => target.remove());

  it('refuses to start when the server does not answer, naming host:port/db and never the password', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const app = new BaseRouter({ logger: silentLogger(), sourceTypes: false }).register(database({ url: `postgres://trellis:s3cret-pw@127.0.0.1:${port}/shop` }));
    await assert.rejects(new TestClient(app).start(), (error: Error & { cause?: unknown }) => {
      assert.doesNotMatch(error.message, /s3cret/);
      const cause = error.cause as TrellisError;
      assert.equal(cause.code, 'TRELLIS_ERR_DATABASE_UNREACHABLE');
      assert.equal(cause.details.address, `127.0.0.1:${port}/shop`);
      assert.match(cause.message, new RegExp(`^Cannot reach the database at 127\\.0\\.0\\.1:${port}/shop: .*ECONNREFUSED`));
      assert.doesNotMatch(cause.message, /s3cret|trellis:/);
      return true;
    });
  });

  it('refuses a wrong password without writing it', async () => {
    const url = new URL(target.options.url!);
    url.password = 'not-the-s3cret';
    const app = new BaseRouter({ logger: silentLogger(), sourceTypes: false }).register(database({ url: url.toString() }));
    await assert.rejects(new TestClient(app).start(), (error: Error & { cause?: unknown }) => {
      const cause = error.cause as TrellisError;
      assert.equal(cause.code, 'TRELLIS_ERR_DATABASE_UNREACHABLE');
      assert.match(cause.message, /password authentication failed/);
      assert.doesNotMatch(`${error.message} ${cause.message}`, /not-the-s3cret/);
      return true;
    });
  });

  it('answers /readyz 503 while the server is unreachable, 200 again once it is back, and keeps serving', async () => {
    const url = new URL(target.options.url!);
    const proxy = new Proxy({ host: url.hostname, port: Number(url.port || 5432) });
    await proxy.open();
    url.host = `127.0.0.1:${proxy.port}`;
    const log = capturedLog('warn');
    const app = new BaseRouter({ logger: log.logger, sourceTypes: false, health: { checkInterval: 0, timeout: 3_000 } }).register(
      database({ url: url.toString(), pool: 2 }),
    );
    const client = new TestClient(app);
    await client.start();
    try {
      const up = await client.get('/readyz');
      assert.equal(up.status, 200);
      assert.deepEqual(up.json().checks, { database: 'up' });

      await proxy.cut();
      const down = await until(client, '/readyz', 503);
      assert.equal(down.status, 503);
      assert.deepEqual(down.json().checks, { database: 'down' });
      assert.equal((await client.get('/healthz')).status, 200);
      assert.ok(log.lines.some((line) => line.msg === 'health check failed' && line.hook === 'database.healthCheck()'));

      await proxy.open();
      const back = await until(client, '/readyz', 200);
      assert.equal(back.status, 200);
      assert.deepEqual(back.json().checks, { database: 'up' });
    } finally {
      assert.equal(await client.close(), true);
      await proxy.cut();
    }
  });
});
