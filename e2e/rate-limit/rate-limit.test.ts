import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { appendFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { childrenOf, cleanup, copyFixture, Running } from '../../cli/tests/run-support';
import { connectRedis } from '../../framework/redis/connect';

// The acceptance test: a limit of 100 a minute holds at exactly 100 across `trellis run --workers 4`, and
// across two `trellis run` instances sharing one Redis (`.ci/run` starts it; without it these fail, never skip).
const REDIS_URL = process.env.TRELLIS_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
// Compiling and reading a project's types takes seconds of CPU per process: tens of seconds on 2 busy cores.
const START_WITHIN_MS = 180_000;

const redis = connectRedis(REDIS_URL, { redis: { enableOfflineQueue: true } });
const prefixes: string[] = [];
const running: Running[] = [];
after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  cleanup();
  for (const prefix of prefixes) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
  }
  await redis.quit();
});

/** The healthy fixture limited to 100 requests a minute per client in Redis, with a `/whoami` route (not limited) naming the process. */
function limitedProject(): { dir: string; prefix: string } {
  const prefix = `trellis-test:e2e-rate-limit:${randomBytes(6).toString('hex')}:`;
  prefixes.push(prefix);
  const dir = copyFixture('healthy');
  appendFileSync(join(dir, 'config.yaml'), `rate_limit:\n  limit: 100\n  window: 1m\n  store: redis\n  prefix: "${prefix}"\nredis:\n  url: ${REDIS_URL}\n`);
  writeFileSync(
    join(dir, 'routers', 'whoami.ts'),
    "import { Get, RateLimit, router } from 'trellis';\n\n" +
      "export class WhoamiRouter extends router('/whoami') {\n" +
      '  @Get() @RateLimit(false) whoami() {\n    return { pid: process.pid };\n  }\n}\n',
  );
  return { dir, prefix };
}

function start(args: string[], cwd: string): Running {
  const run = new Running(['.', '--port', '0', '--no-access-log', ...args], cwd);
  running.push(run);
  return run;
}

/** A GET on a connection of its own (so that the workers share the requests): status and the answering pid when there is one. */
function fresh(url: string): Promise<{ status: number; body: string; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, retryAfter: res.headers['retry-after'] }));
    }).on('error', reject);
  });
}

/** Sends `count` GETs to the urls in turn, 16 at a time: the statuses, by count. */
async function burst(urls: string[], path: string, count: number): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      const { status } = await fresh(`${urls[i % urls.length]}${path}`);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: 16 }, lane));
  return statuses;
}

describe('rate limits shared through Redis, real processes', () => {
  it('100 a minute hold at exactly 100 across trellis run --workers 4', async () => {
    const { dir, prefix } = limitedProject();
    const run = start(['--workers', '4'], dir);
    const url = await run.url(START_WITHIN_MS);
    const pids = new Set<string>();
    // Every worker serves before the burst (the banner comes with the first): the requests then go round the four.
    const deadline = Date.now() + START_WITHIN_MS;
    while (pids.size < 4 && Date.now() < deadline) {
      pids.add(JSON.parse((await fresh(`${url}/whoami`)).body).pid);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(pids.size, 4, `workers answering: ${[...pids]}`);
    assert.equal(childrenOf(run.pid).length, 4);

    const statuses = await burst([url], '/tasks', 400);
    assert.deepEqual(statuses, { 200: 100, 429: 300 });
    const refused = await fresh(`${url}/tasks`);
    assert.equal(refused.status, 429);
    assert.deepEqual(JSON.parse(refused.body), { error: 'Too Many Requests' });
    assert.ok(Number(refused.retryAfter) >= 1 && Number(refused.retryAfter) <= 60, `Retry-After: ${refused.retryAfter}`);
    assert.equal(Number(await redis.get(`${prefix}default:a:127.0.0.1`)), 401);
    run.kill('SIGTERM');
    assert.equal((await run.exited).code, 0);
  });

  it('100 a minute hold at exactly 100 across two instances on two ports sharing Redis', async () => {
    const { dir } = limitedProject();
    const runs = [start([], dir), start([], dir)];
    const urls = await Promise.all(runs.map((run) => run.url(START_WITHIN_MS)));
    assert.notEqual(urls[0], urls[1]);
    const statuses = await burst(urls, '/tasks', 300);
    assert.deepEqual(statuses, { 200: 100, 429: 200 });
    assert.equal((await fresh(`${urls[1]}/tasks`)).status, 429);
    assert.equal((await fresh(`${urls[0]}/tasks`)).status, 429);
    for (const run of runs) run.kill('SIGTERM');
    for (const run of runs) assert.equal((await run.exited).code, 0);
  });
});
