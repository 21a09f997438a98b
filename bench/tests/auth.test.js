'use strict';
// The auth harness (bench/auth.js), real processes: trellis's jwtAuth app and the @fastify/jwt app answer alike
// (the same status and body to the token, the same refusals), the dependency apps answer alike, the check before
// measuring leaves out a guard that lets anyone in, wrk's scripts carry the token, and the tables. Not in `npm test`.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { after, before, describe, it } = require('node:test');
const { ALGORITHMS, DEPENDENCY_PAIR, JWT_PAIRS, TASK, authContenders, authEndpoints, bearer } = require('../lib/auth/contenders');
const { dependencyTable, jwtTable } = require('../lib/auth/report');
const { authKeys, runTokens } = require('../lib/auth/tokens');
const { pinning } = require('../lib/cpu');
const { writeWrkScripts } = require('../lib/endpoints');
const { request } = require('../lib/http-get');
const { checkContender } = require('../lib/phases/check');
const { startServer } = require('../lib/server');

const pin = { ...pinning(), pinned: false };
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-bench-auth-test-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

/** @type {Record<string, string>} */
let tokens = {};
/** @type {Record<string, Record<string, string>>} */
let refused = {};
/** @type {import('../lib/contenders').Contender[]} */
let contenders = [];
before(async () => {
  const keys = await authKeys();
  ({ tokens, refused } = await runTokens(keys, ALGORITHMS));
  contenders = authContenders(keys, tokens, refused);
});

/** `[status, body]` of each request, from a fresh server of contender `id`. */
async function answers(id, requests) {
  const server = await startServer(/** @type {any} */ (contenders.find((c) => c.id === id)), pin, {});
  try {
    const seen = [];
    for (const r of requests) {
      const answer = await request(server.port, r);
      seen.push([answer.status, answer.json]);
    }
    return seen;
  } finally {
    await server.stop();
  }
}

describe('trellis jwtAuth and Fastify @fastify/jwt answer alike', () => {
  for (const [i, algorithm] of ALGORITHMS.entries()) {
    it(`${algorithm}: 200 and the same body to the token; 401 to no token, an expired one, a wrong algorithm and each other fault`, async () => {
      const requests = [
        { path: '/tasks/1', headers: bearer(tokens[algorithm]) },
        { path: '/tasks/1' },
        ...Object.values(refused[algorithm]).map((t) => ({ path: '/tasks/1', headers: bearer(t) })),
      ];
      const [trellis, fastify] = [await answers(JWT_PAIRS[i][0], requests), await answers(JWT_PAIRS[i][1], requests)];
      assert.deepEqual(trellis[0], [200, { ...TASK, user: 'user-1' }]);
      assert.deepEqual(fastify[0], trellis[0]);
      const statuses = (seen) => seen.slice(1).map(([status]) => status);
      assert.deepEqual(statuses(trellis), Array(requests.length - 1).fill(401));
      assert.deepEqual(statuses(fastify), statuses(trellis));
      assert.deepEqual(Object.keys(refused[algorithm]), ['expired', 'wrong algorithm', 'alg none', 'bad signature', 'wrong issuer', 'wrong audience', 'malformed']);
    });
  }

  it('each JWT contender passes the check the harness runs before measuring', async () => {
    for (const id of JWT_PAIRS.flat()) assert.deepEqual(await checkContender(contenders.find((c) => c.id === id), pin), [], id);
  });

  it('the check leaves out a server that lets a request without a token in', async () => {
    const open = { ...contenders.find((c) => c.id === 'fastify-hs256'), id: 'open', command: () => [process.execPath, '-e', openServer] };
    const problems = await checkContender(open, pin);
    assert.equal(problems.length, 8);
    assert.match(problems[0], /^GET \/tasks\/1 without a token: got 200 /);
  });
});

// Answers every request with trellis's task body and status 200, whatever its token.
const openServer = `require('node:http').createServer((q, s) => s.end(${JSON.stringify(JSON.stringify({ ...TASK, user: 'user-1' }))})).listen(Number(process.env.PORT), '127.0.0.1')`;

describe('the request-scoped dependency apps', () => {
  it('answer the task and a missing task alike, with the dependency and without', async () => {
    const requests = [{ path: '/tasks/1' }, { path: '/tasks/999' }];
    const [withIt, without] = [await answers(DEPENDENCY_PAIR[0], requests), await answers(DEPENDENCY_PAIR[1], requests)];
    assert.deepEqual(without[0], [200, TASK]);
    assert.equal(without[1][0], 404);
    assert.deepEqual(withIt, without);
  });
});

describe('wrk scripts and endpoints', () => {
  it('send each algorithm\'s token to its pair alone, and no token to the dependency pair', () => {
    const endpoints = authEndpoints({ HS256: 'h.s.t', RS256: 'r.s.t' });
    assert.deepEqual(endpoints.map((e) => [e.id, e.group, e.contenders]), [['hs256', 'jwt', JWT_PAIRS[0]], ['rs256', 'jwt', JWT_PAIRS[1]], ['depends', 'depends', DEPENDENCY_PAIR]]);
    const scripts = writeWrkScripts(work, endpoints);
    assert.equal(fs.readFileSync(scripts.rs256, 'utf8'), 'wrk.method = "GET"\nwrk.path = "/tasks/1"\nwrk.headers["authorization"] = "Bearer r.s.t"\n');
    assert.equal(fs.readFileSync(scripts.depends, 'utf8'), 'wrk.method = "GET"\nwrk.path = "/tasks/1"\n');
  });
});

describe('tables', () => {
  const cell = (rps, cpuUs, p99) => ({ rps, cpuUs, p99 });
  it('gives trellis / Fastify per algorithm against >= 1.0, by req/s and by CPU', () => {
    const cells = { hs256: { t: [cell(900, 50, 2), cell(1100, 40, 4), cell(1000, 45, 3)], f: [cell(800, 60, 3)] }, rs256: { t: [cell(400, 100, 5)], f: [cell(500, 90, 4)] } };
    const table = jwtTable(cells, [{ id: 'hs256', label: 'HS', contenders: ['t', 'f'] }, { id: 'rs256', label: 'RS', contenders: ['t', 'f'] }]).split('\n');
    assert.equal(table[2], '| HS | 1000 | 800 | 1.25 | 1.33 | met | 3.00, 3.00 | 45.0, 60.0 |');
    assert.equal(table[3], '| RS | 400 | 500 | 0.80 | 0.90 | missed | 5.00, 4.00 | 100.0, 90.0 |');
  });

  it('gives the µs a request gains with the dependency, from req/s and from server CPU', () => {
    const cells = { depends: { with: [cell(20_000, 52, 4)], without: [cell(25_000, 40, 3)] } };
    const table = dependencyTable(cells, { id: 'depends', label: 'GET /tasks/1', contenders: ['with', 'without'] }).split('\n');
    assert.equal(table[2], '| GET /tasks/1 | 25000 | 20000 | 0.80 | 10.0 | 40.0, 52.0 | 12.0 | 3.00, 4.00 |');
  });
});
