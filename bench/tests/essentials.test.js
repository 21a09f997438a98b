'use strict';
// The essentials harness (bench/essentials.js), real processes: each pair of apps answers alike (the same status,
// the feature's headers, the same body after decompression, the same frames), every server passes the check before
// measuring and a server without its feature does not, the echo client (with and without a token) and the idle cell
// run, wrk's scripts carry the headers, and the tables. Needs the Redis of TRELLIS_TEST_REDIS_URL (fails without it). Not in `npm test`.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { after, describe, it } = require('node:test');
const { ECHO_PATH, GUARDED_PATH, LIMIT, ORIGIN, PREFIXES, REPORT_PATH } = require('../apps/essentials/config');
const { SCOPE_REFUSAL } = require('../apps/essentials/echo');
const { REPORT } = require('../apps/essentials/payload');
const { TOKEN, UNSCOPED_TOKEN } = require('../apps/essentials/token');
const { pinning } = require('../lib/cpu');
const { writeWrkScripts } = require('../lib/endpoints');
const { exchange, fetchAnswer, openSocket } = require('../lib/essentials/answer');
const { TASK, guardedWebsocket } = require('../lib/essentials/checks');
const { essentialsContenders, essentialsMeasurements } = require('../lib/essentials/contenders');
const { deleteBenchKeys, withRedis } = require('../lib/essentials/redis');
const { idleTable, overheadTable, pairTable } = require('../lib/essentials/report');
const { checkContender } = require('../lib/essentials/run');
const { measureIdle, runEchoClient } = require('../lib/essentials/ws-cells');
const { echoLoad, EXPECTED, MESSAGE } = require('../lib/essentials/ws-echo-client');
const { startServer } = require('../lib/server');

const pin = { ...pinning(), pinned: false };
const redisUrl = process.env.TRELLIS_TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const contenders = essentialsContenders({ gzipLevel: 5, brotliQuality: 3, redisUrl });
const measurements = essentialsMeasurements();
const byId = (id) => /** @type {import('../lib/contenders').Contender} */ (contenders.find((c) => c.id === id));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-bench-essentials-test-'));

/** @type {Map<string, Promise<{ port: number, stop: () => Promise<void> }>>} one server per contender, shared by the tests */
const servers = new Map();
const serve = (id) => {
  if (!servers.has(id)) servers.set(id, startServer(byId(id), pin, { timeoutMs: 60_000 }));
  return /** @type {Promise<{ port: number, stop: () => Promise<void> }>} */ (servers.get(id));
};
after(async () => {
  await Promise.all([...servers.values()].map(async (s) => (await s).stop()));
  fs.rmSync(work, { recursive: true, force: true });
  await deleteBenchKeys(redisUrl);
});

/** `status`, the named headers and the decoded body of each request, from the server of contender `id`. */
async function answers(id, requests, headerNames = []) {
  const { port } = await serve(id);
  const seen = [];
  for (const r of requests) {
    const answer = await fetchAnswer(port, r);
    seen.push({ status: answer.status, json: answer.json, ...Object.fromEntries(headerNames.map((h) => [h, answer.headers[h]])) });
  }
  return seen;
}

const pairOf = (id) => /** @type {[string, string]} */ (measurements.find((m) => m.id === id)?.contenders);

describe('each feature on answers as the app without it, with the feature\'s headers', () => {
  for (const id of ['cors', 'rate-limit', 'etag', 'compression-small']) {
    it(`${id}: the same status and task; only the feature's headers differ`, async () => {
      const m = /** @type {import('../lib/essentials/contenders').Measurement} */ (measurements.find((x) => x.id === id));
      const [on, off] = m.contenders;
      const request = { path: m.path, headers: m.headers };
      const [a, b] = [await answers(on, [request]), await answers(off, [request])];
      assert.deepEqual(a, [{ status: 200, json: TASK }]);
      assert.deepEqual(b, a);
    });
  }

  it('cors: the allowed Origin echoed with Vary: Origin, none for another origin, from trellis and Fastify alike', async () => {
    const names = ['access-control-allow-origin'];
    const requests = [{ path: '/tasks/1', headers: { origin: ORIGIN } }, { path: '/tasks/1', headers: { origin: 'https://evil.example' } }];
    const [trellis, fastify] = [await answers('trellis-cors', requests, names), await answers('fastify-cors', requests, names)];
    assert.equal(trellis[0]['access-control-allow-origin'], ORIGIN);
    assert.equal(trellis[1]['access-control-allow-origin'], undefined);
    assert.deepEqual(fastify, trellis);
  });
});

describe('trellis compression() and @fastify/compress answer alike', () => {
  for (const level of ['default', 'equal']) {
    it(`${level} levels: gzip and br of the 20 KB report decode to the same body; a small body goes out as it is`, async () => {
      const [trellis, fastify] = pairOf(`gzip-${level}`);
      const requests = [
        { path: REPORT_PATH, headers: { 'accept-encoding': 'gzip' } },
        { path: REPORT_PATH, headers: { 'accept-encoding': 'br' } },
        { path: REPORT_PATH, headers: { 'accept-encoding': 'gzip;q=0.5, br' } },
        { path: REPORT_PATH },
        { path: '/tasks/1', headers: { 'accept-encoding': 'gzip, br' } },
      ];
      const names = ['content-encoding'];
      const [a, b] = [await answers(trellis, requests, names), await answers(fastify, requests, names)];
      assert.deepEqual(a.map((x) => x['content-encoding']), ['gzip', 'br', 'br', undefined, undefined]);
      assert.deepEqual(a.slice(0, 4).map((x) => x.json), Array(4).fill(REPORT));
      assert.deepEqual(b, a);
      for (const id of [trellis, fastify]) {
        const vary = (await fetchAnswer((await serve(id)).port, requests[0])).headers.vary;
        assert.match(String(vary), /accept-encoding/i, id);
      }
    });
  }

  it('the equal-level servers run the levels they are given: their gzip differs in size from the defaults\'', async () => {
    const request = { path: REPORT_PATH, headers: { 'accept-encoding': 'gzip' } };
    const size = async (id) => (await fetchAnswer((await serve(id)).port, request)).bytes;
    assert.notEqual(await size('trellis-compression-equal'), await size('trellis-compression'));
    assert.equal(await size('trellis-compression-equal'), await size('fastify-compression-equal'));
  });
});

describe('the Redis rate-limit pair', () => {
  it('counts in Redis under each framework\'s prefix, answering the same task with its RateLimit headers', async () => {
    await deleteBenchKeys(redisUrl);
    const [trellis, fastify] = [await answers('trellis-redis', [{ path: '/tasks/1' }]), await answers('fastify-redis', [{ path: '/tasks/1' }])];
    assert.deepEqual(trellis, [{ status: 200, json: TASK }]);
    assert.deepEqual(fastify, trellis);
    const counts = await withRedis(redisUrl, async (redis) => Promise.all(Object.values(PREFIXES).map(async (p) => (await redis.keys(`${p}*`)).length)));
    assert.deepEqual(counts.map((n) => n > 0), [true, true]);
    assert.equal(await deleteBenchKeys(redisUrl) >= 2, true);
  });

  it('both servers pass the check before measuring', async () => {
    for (const id of pairOf('redis')) assert.deepEqual(await checkContender(byId(id), pin), [], id);
  });
});

describe('the WebSocket pair', () => {
  it('echo the same frames and answer an error frame to a frame that is not JSON and to an unknown event', async () => {
    const frames = [MESSAGE, 'not json', JSON.stringify({ event: 'nope', data: {} })];
    const [trellis, fastify] = await Promise.all(pairOf('echo').map(async (id) => exchange((await serve(id)).port, '/ws/echo', frames)));
    assert.equal(trellis[0], EXPECTED);
    assert.equal(fastify[0], EXPECTED);
    for (const seen of [trellis, fastify]) assert.deepEqual(seen.slice(1).map((f) => JSON.parse(f).event), ['error', 'error']);
  });

  it('the echo client counts round trips, none wrong, on both', async () => {
    for (const id of pairOf('echo')) {
      const result = await echoLoad({ port: (await serve(id)).port, path: '/ws/echo', connections: 8, seconds: 1 });
      assert.ok(result.roundTrips > 8, `${id}: ${JSON.stringify(result)}`);
      assert.equal(result.wrong, 0, id);
      assert.equal(result.closed, 0, id);
    }
  });

  it('the idle cell opens the connections and reads the server\'s memory before and after a collection', async () => {
    const cell = await measureIdle(byId('fastify-ws'), { path: '/ws/echo' }, { pin, settings: { idleConnections: 60 } });
    assert.equal(cell.connections, 60);
    for (const value of Object.values(cell)) assert.ok(Number.isFinite(value) && value > 0);
  });
});

describe('the guarded WebSocket pair', () => {
  const bearer = (token) => ({ authorization: `Bearer ${token}` });
  const guarded = /** @type {import('../lib/essentials/contenders').Measurement} */ (measurements.find((m) => m.id === 'echo-guarded'));
  const frames = [MESSAGE, 'not json', JSON.stringify({ event: 'nope', data: {} }), JSON.stringify({ event: 'echo', data: [1, 'x'] })];

  it('is measured with the token on every upgrade, at its own path', () => {
    assert.equal(guarded.path, GUARDED_PATH);
    assert.notEqual(GUARDED_PATH, ECHO_PATH);
    assert.deepEqual(guarded.headers, bearer(TOKEN));
    const [header, claims] = TOKEN.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    assert.deepEqual(header, { alg: 'HS256', typ: 'JWT' });
    assert.equal(claims.scope, 'echo');
    assert.ok(claims.exp - claims.iat > 365 * 24 * 3600 && typeof claims.sub === 'string');
  });

  it('with the token: the same echo from both, an error frame to what is not an echo', async () => {
    const [trellis, fastify] = await Promise.all(pairOf('echo-guarded').map(async (id) => exchange((await serve(id)).port, GUARDED_PATH, frames, 15_000, bearer(TOKEN))));
    assert.equal(trellis[0], EXPECTED);
    assert.equal(trellis[3], JSON.stringify({ event: 'echo', data: [1, 'x'] }));
    assert.deepEqual([fastify[0], fastify[3]], [trellis[0], trellis[3]]);
    for (const seen of [trellis, fastify]) assert.deepEqual(seen.slice(1, 3).map((f) => JSON.parse(f).event), ['error', 'error']);
  });

  it('a token without the scope: upgraded, and every echo answered the same refusal frame by both', async () => {
    for (const id of pairOf('echo-guarded')) {
      const seen = await exchange((await serve(id)).port, GUARDED_PATH, [MESSAGE, MESSAGE], 15_000, bearer(UNSCOPED_TOKEN));
      assert.deepEqual(seen, [SCOPE_REFUSAL, SCOPE_REFUSAL], id);
      assert.deepEqual(JSON.parse(SCOPE_REFUSAL), { event: 'error', data: { error: 'The token lacks a scope this route needs' } });
    }
  });

  it('no token, a malformed one or another scheme: the upgrade refused 401 by both', async () => {
    for (const id of pairOf('echo-guarded')) {
      const { port } = await serve(id);
      for (const headers of [undefined, { authorization: 'Bearer x.y.z' }, { authorization: `Basic ${TOKEN}` }]) {
        await assert.rejects(openSocket(port, GUARDED_PATH, 10_000, headers), (error) => /** @type {{ status?: number }} */ (error).status === 401, `${id} ${JSON.stringify(headers)}`);
      }
    }
  });

  it('the echo client sends the token: round trips, none wrong, on both (in process and as the cell runs it)', async () => {
    for (const id of pairOf('echo-guarded')) {
      const { port } = await serve(id);
      for (const result of [
        await echoLoad({ port, path: GUARDED_PATH, connections: 8, seconds: 1, headers: guarded.headers }),
        await runEchoClient(pin, { port, path: GUARDED_PATH, connections: 8, seconds: 1, headers: guarded.headers }),
      ]) {
        assert.ok(result.roundTrips > 8, `${id}: ${JSON.stringify(result)}`);
        assert.equal(result.wrong, 0, id);
        assert.equal(result.closed, 0, id);
      }
      await assert.rejects(echoLoad({ port, path: GUARDED_PATH, connections: 2, seconds: 1 }), /upgrade refused: 401/, id);
    }
  });
});

describe('the check before measuring', () => {
  it('passes every server', async () => {
    for (const c of contenders.filter((x) => !x.id.endsWith('redis'))) assert.deepEqual(await checkContender(c, pin), [], c.id);
  });

  it('leaves out a server whose feature does nothing (the plain app under each feature\'s checks)', async () => {
    await deleteBenchKeys(redisUrl);
    for (const id of ['trellis-cors', 'trellis-rate-limit', 'trellis-etag', 'trellis-compression', 'fastify-redis']) {
      const fake = { ...byId(id), env: { ...byId(id).env, FEATURES: 'none' } };
      const problems = await checkContender(fake, pin);
      assert.ok(problems.length > 0, id);
    }
  });

  it('leaves out an echo without the guard: the guarded checks on the plain echo path', async () => {
    for (const id of pairOf('echo')) {
      const problems = await checkContender({ ...byId(id), checks: guardedWebsocket(ECHO_PATH) }, pin);
      assert.equal(problems.length, 3, `${id}: ${problems.join('; ')}`);
    }
  });
});

describe('wrk scripts and tables', () => {
  it('send each pair\'s headers: the Origin to CORS, Accept-Encoding to compression', () => {
    const scripts = writeWrkScripts(work, measurements.filter((m) => m.kind === 'http'));
    assert.match(fs.readFileSync(scripts.cors, 'utf8'), /wrk\.headers\["origin"\] = "http:\/\/localhost:5173"/);
    assert.match(fs.readFileSync(scripts['br-default'], 'utf8'), /wrk\.path = "\/reports\/tasks"\nwrk\.headers\["accept-encoding"\] = "br"/);
    assert.equal(fs.readFileSync(scripts['rate-limit'], 'utf8'), 'wrk.method = "GET"\nwrk.path = "/tasks/1"\n');
    assert.ok(LIMIT > 1e8);
  });

  const cell = (rps, cpuUs, p99) => ({ rps, cpuUs, p99 });
  it('gives each feature\'s cost on / off against its target', () => {
    const cells = { cors: { on: [cell(9800, 51, 2)], off: [cell(10000, 50, 2)] }, etag: { on: [cell(9000, 55, 3)], off: [cell(10000, 50, 2)] } };
    const table = overheadTable(cells, [
      { id: 'cors', label: 'GET', group: 'overhead', kind: 'http', method: 'GET', path: '/', status: [200], contenders: ['on', 'off'], feature: 'CORS', maxCost: 0.03 },
      { id: 'etag', label: 'GET', group: 'overhead', kind: 'http', method: 'GET', path: '/', status: [200], contenders: ['on', 'off'], feature: 'ETag', maxCost: 0.03 },
    ]).split('\n');
    assert.equal(table[2], '| CORS | GET | 10000 | 9800 | 0.980 | 2.0 % | 50.0, 51.0 | 2.0 % | <= 3 %: met | 2.00, 2.00 |');
    assert.equal(table[3], '| ETag | GET | 10000 | 9000 | 0.900 | 10.0 % | 50.0, 55.0 | 10.0 % | <= 3 %: missed | 2.00, 3.00 |');
  });

  it('gives trellis / Fastify with the bytes sent, and the memory each idle connection adds', () => {
    const m = { id: 'gzip', label: 'gzip', group: 'compression', kind: 'http', method: 'GET', path: '/', status: [200], contenders: /** @type {[string, string]} */ (['t', 'f']) };
    const cells = { gzip: { t: [cell(5000, 190, 4), cell(6000, 170, 5), cell(5500, 180, 3)], f: [cell(5000, 200, 4)] } };
    const table = pairTable(cells, [m], { unit: 'req/s', target: 1, bytes: { gzip: { t: 2475, f: 2480 } } }).split('\n');
    assert.equal(table[2], '| gzip | 5500 | 5000 | 1.10 | 1.11 | met | 2475, 2480 | 4.00, 4.00 | 180.0, 200.0 |');
    const targeted = pairTable({ gzip: cells.gzip, slow: { t: [cell(900, 120, 6)], f: [cell(1000, 100, 5)] } }, [m, { ...m, id: 'slow', label: 'slow', minRatio: 1 }], { unit: 'msg/s' }).split('\n');
    assert.equal(targeted[2], '| gzip | 5500 | 5000 | 1.10 | 1.11 | reported | 4.00, 4.00 | 180.0, 200.0 |');
    assert.equal(targeted[3], '| slow | 900 | 1000 | 0.90 | 0.83 | >= 1.0: missed | 6.00, 5.00 | 120.0, 100.0 |');
    const idle = { idle: { t: [{ connections: 1000, rssBeforeMB: 60, rssAfterMB: 70, heapBeforeMB: 10, heapAfterMB: 15, externalBeforeMB: 2, externalAfterMB: 3 }] } };
    const rows = idleTable(idle, { ...m, id: 'idle', contenders: ['t', 'f'] }, { t: 'trellis' }).split('\n');
    assert.equal(rows[2], '| trellis | 1000 | 60.0, 70.0 | 10.2 | 10.0, 15.0 | 5.1 | 2.0, 3.0 |');
  });
});
