import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { after, describe, it } from 'node:test';
import { BaseRouter, Get, RateLimit, router, Use, type Request } from '../index';
import { apiKeyAuth } from '../auth';
import { connectRedis } from '../plugins';
import { rateLimit, redisStore } from '../plugins';
import { TestClient } from '../testing';
import { capturedLog, silentLogger } from './fixtures/captured-log';

const REDIS_URL = process.env.TRELLIS_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `trellis-test:rate-limit-redis:${process.pid}:`;

class Tasks extends router('/tasks') {
  @Get('/') list() { return ['write docs']; }
}

const app = (plugin: ReturnType<typeof rateLimit>, logger = silentLogger()) => new BaseRouter({ logger }).includeRouter(Tasks).register(plugin);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A redis-server of this test's own, on a free port, that the test can stop. */
async function ownRedis(port: number): Promise<ChildProcess> {
  const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const probe = connectRedis(`redis://127.0.0.1:${port}`, { redis: { retryStrategy: () => 50 } });
  try {
    await until(async () => (await probe.ping().catch(() => '')) === 'PONG', `redis-server on port ${port}`);
  } finally {
    probe.disconnect();
  }
  return server;
}

async function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGKILL');
  await exited;
}

const shared = connectRedis(REDIS_URL, { redis: { enableOfflineQueue: true } });
after(async () => {
  const keys = await shared.keys(`${PREFIX}*`);
  if (keys.length) await shared.del(...keys);
  await shared.quit();
});

describe('redisStore(): one count for every process', () => {
  it('two apps on one Redis share the count exactly: 60 concurrent requests, limit 25, 25 succeed', async () => {
    const prefix = `${PREFIX}shared:`;
    const clients = [1, 2].map(() => new TestClient(app(rateLimit({ limit: 25, store: redisStore({ url: REDIS_URL, prefix }) }))));
    await Promise.all(clients.map((client) => client.start()));
    const responses = await Promise.all(Array.from({ length: 60 }, (_, i) => clients[i % 2].get('/tasks')));
    const ok = responses.filter((response) => response.status === 200);
    assert.equal(ok.length, 25);
    assert.equal(responses.filter((response) => response.status === 429).length, 35);
    assert.deepEqual(ok.map((response) => Number(/r=(\d+)/.exec(String(response.headers.ratelimit))![1])).sort((a, b) => a - b), Array.from({ length: 25 }, (_, i) => i));
    const ttl = await shared.pttl((await shared.keys(`${prefix}*`))[0]);
    assert.ok(ttl > 50_000 && ttl <= 60_000, `the window expires with the first hit's window: ${ttl}`);
    await Promise.all(clients.map((client) => client.close()));
  });

  it('a client of your own: one EVALSHA per request (one round trip), the store never closes it', async () => {
    const client = connectRedis(REDIS_URL);
    const monitor = connectRedis(REDIS_URL, { redis: { enableOfflineQueue: true } });
    const watching = await monitor.monitor();
    const test = new TestClient(app(rateLimit({ limit: 5, store: redisStore({ client, prefix: `${PREFIX}own:` }) })));
    try {
      await until(() => client.status === 'ready', 'the client');
      const commands: string[] = [];
      // Commands the app sent, not the ones its script ran inside Redis (source 'lua').
      watching.on('monitor', (_time: string, args: string[], source: string) => {
        if (source !== 'lua' && args.some((arg) => String(arg).startsWith(`${PREFIX}own:`))) commands.push(String(args[0]).toLowerCase());
      });
      for (let i = 0; i < 4; i++) assert.equal((await test.get('/tasks')).status, 200);
      await until(() => commands.filter((command) => command === 'evalsha').length >= 3, `the monitored commands (${commands})`);
      // ioredis sends EVALSHA, and EVAL once when Redis does not know the script yet.
      assert.ok(commands.every((command) => command === 'evalsha' || command === 'eval'), commands.join());
      assert.ok(commands.length <= 5, commands.join());
      await test.close();
      assert.equal(client.status, 'ready');
    } finally {
      watching.disconnect();
      monitor.disconnect();
      client.disconnect();
    }
  });
});

describe('redisStore(): a keyed limit behind a guard', () => {
  @Use(apiKeyAuth({ lookup: new Map([['key-ada-0123456789abcdef', { sub: 'ada' }]]) }))
  @RateLimit({ limit: 3, key: (request: Request) => request.user?.sub })
  class Reports extends router('/reports') {
    @Get('/') list() { return []; }
  }

  it('refusals count by address in Redis: a second process answers 429 at its first refusal, then locks the address out', async () => {
    const prefix = `${PREFIX}refusals:`;
    const clients = [1, 2].map(() => new TestClient(new BaseRouter({ logger: silentLogger() }).includeRouter(Reports).register(rateLimit({ store: redisStore({ url: REDIS_URL, prefix }) }))));
    await Promise.all(clients.map((client) => client.start()));
    const get = async (client: TestClient, key: string) => (await client.get('/reports', { headers: { 'x-api-key': key } })).status;
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await get(clients[0], 'wrong'));
    statuses.push(await get(clients[1], 'wrong'), await get(clients[1], 'key-ada-0123456789abcdef'), await get(clients[0], 'key-ada-0123456789abcdef'));
    assert.deepEqual(statuses, [401, 401, 401, 429, 429, 429]);
    assert.deepEqual(await shared.keys(`${prefix}*`), [`${prefix}Reports:a:127.0.0.1`]);
    await Promise.all(clients.map((client) => client.close()));
  });
});

describe('redisStore(): Redis going away', () => {
  it('a closed port: open lets requests through at once, closed answers 503; one log line, no hang', async () => {
    const port = await freePort();
    for (const onStoreError of ['open', 'closed'] as const) {
      const { logger, lines } = capturedLog('info');
      const client = new TestClient(app(rateLimit({ limit: 1, onStoreError, store: redisStore({ url: `redis://127.0.0.1:${port}`, prefix: `${PREFIX}closed:` }) }), logger));
      const started = Date.now();
      await client.start();
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await client.get('/tasks')).status);
      assert.deepEqual(statuses, Array(10).fill(onStoreError === 'open' ? 200 : 503));
      assert.ok(Date.now() - started < 8_000, `requests waited: ${Date.now() - started} ms`);
      const warnings = lines.filter((line) => /rate limit store unavailable/.test(String(line.msg)));
      assert.equal(warnings.length, 1);
      if (onStoreError === 'closed') assert.equal((await client.get('/tasks')).headers['retry-after'], '1');
      await client.close();
    }
  });

  it('a Redis stopped mid-run, then back: counted, uncounted (open), counted again; two log lines', async () => {
    const port = await freePort();
    let server = await ownRedis(port);
    const { logger, lines } = capturedLog('info');
    const client = new TestClient(app(rateLimit({ limit: 3, store: redisStore({ url: `redis://127.0.0.1:${port}`, prefix: `${PREFIX}midrun:` }) }), logger));
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      await client.start();
      assert.deepEqual([(await client.get('/tasks')).status, (await client.get('/tasks')).status], [200, 200]);
      await stop(server);
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await client.get('/tasks')).status);
      assert.deepEqual(statuses, Array(10).fill(200));
      assert.equal((await client.get('/tasks')).headers.ratelimit, undefined);
      server = await ownRedis(port);
      // The client reconnects by itself; its count starts afresh (this Redis lost the keys).
      await until(async () => (await client.get('/tasks')).headers.ratelimit !== undefined, 'the store to count again');
      const counted = [];
      for (let i = 0; i < 4; i++) counted.push((await client.get('/tasks')).status);
      assert.ok(counted.includes(429), `counting again: ${counted}`);
      const messages = lines.map((line) => String(line.msg)).filter((msg) => /rate limit store/.test(msg));
      assert.deepEqual(messages, ['rate limit store unavailable: letting requests through uncounted until it is back', 'rate limit store available again: counting requests']);
      assert.deepEqual(rejections, []);
    } finally {
      process.off('unhandledRejection', onRejection);
      await client.close();
      await stop(server);
    }
  });

  it('redisStore() refuses a URL that is not redis:// and an ambiguous source, without the password', () => {
    assert.throws(() => redisStore({ url: 'http://user:s3cret@host' }), (error: Error & { code?: string }) => error.code === 'TRELLIS_ERR_REDIS_URL' && !error.message.includes('s3cret'));
    assert.throws(() => redisStore({}), /give either url or client/);
  });
});
