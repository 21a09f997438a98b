'use strict';
// What each essentials server must answer before it is measured (bench/essentials.js leaves out a pair with a
// server that does not): the task, the 20 KB report decoded, the feature's headers where it is on and none where it
// is off, the counter in Redis under the framework's prefix, the echo frame, and on the guarded echo the token
// checked on the upgrade and its scope on each message. A feature that does nothing is cheaper and measures nothing.
const { isDeepStrictEqual } = require('node:util');
const { ORIGIN, PREFIXES, REPORT_PATH, ECHO_PATH, ECHO_SCOPE, GUARDED_PATH } = require('../../apps/essentials/config');
const { SCOPE_REFUSAL } = require('../../apps/essentials/echo');
const { REPORT } = require('../../apps/essentials/payload');
const { TOKEN, UNSCOPED_TOKEN, signHs256 } = require('../../apps/essentials/token');
const { EXPECTED, MESSAGE } = require('./ws-echo-client');
const { exchange, fetchAnswer, openSocket } = require('./answer');

const TASK = { id: 1, title: 'Write the spec', description: '', completed: false };
const RATE_LIMIT_HEADER = /^ratelimit(-limit)?$/;

/** @typedef {{ label: string, run: (port: number) => Promise<string | undefined> }} Check a problem, or undefined */

/** A check of `GET path` with `headers`: `expect(answer)` returns what is wrong, if anything. */
function get(label, path, headers, expect) {
  return {
    label,
    run: async (/** @type {number} */ port) => {
      const answer = await fetchAnswer(port, { path, headers });
      const problem = expect(answer);
      return problem ? `${problem} (got ${answer.status} ${JSON.stringify(answer.headers)} ${answer.text.slice(0, 120)})` : undefined;
    },
  };
}

const isTask = (answer) => (answer.status === 200 && isDeepStrictEqual(answer.json, TASK) ? undefined : 'not 200 with task 1');
const both = (...expects) => (answer) => expects.map((expect) => expect(answer)).find(Boolean);
const rateLimitHeaders = (answer) => Object.keys(answer.headers).filter((name) => RATE_LIMIT_HEADER.test(name));

/** The app with no feature: the task, and no header any feature adds. */
function plain() {
  const none = (answer) => {
    const added = ['access-control-allow-origin', 'etag', 'content-encoding', ...rateLimitHeaders(answer)].filter((h) => answer.headers[h] !== undefined);
    return added.length ? `feature headers with no feature on: ${added.join(', ')}` : undefined;
  };
  return [get('GET /tasks/1, no feature', '/tasks/1', { origin: ORIGIN, 'accept-encoding': 'gzip, br' }, both(isTask, none))];
}

/** The task, whatever headers come with it (the constant-header servers). */
function task() {
  return [get('GET /tasks/1', '/tasks/1', { origin: ORIGIN }, both(isTask, () => undefined))];
}

function cors() {
  const allowed = (answer) => (answer.headers['access-control-allow-origin'] === ORIGIN && /origin/i.test(String(answer.headers.vary)) ? undefined : 'no Access-Control-Allow-Origin and Vary: Origin');
  const refused = (answer) => (answer.headers['access-control-allow-origin'] === undefined ? undefined : 'Access-Control-Allow-Origin for a refused origin');
  return [
    get('GET /tasks/1, allowed Origin', '/tasks/1', { origin: ORIGIN }, both(isTask, allowed)),
    get('GET /tasks/1, another Origin', '/tasks/1', { origin: 'https://evil.example' }, refused),
  ];
}

function rateLimit() {
  const counted = (answer) => (rateLimitHeaders(answer).length ? undefined : 'no RateLimit header');
  return [get('GET /tasks/1, counted', '/tasks/1', {}, both(isTask, counted))];
}

function etag() {
  let tag = '';
  const tagged = (answer) => {
    tag = String(answer.headers.etag ?? '');
    return /^W\/".+"$/.test(tag) ? undefined : 'no weak ETag';
  };
  return [
    get('GET /tasks/1, ETag', '/tasks/1', {}, both(isTask, tagged)),
    { label: 'GET /tasks/1, If-None-Match', run: async (port) => ((await fetchAnswer(port, { path: '/tasks/1', headers: { 'if-none-match': tag } })).status === 304 ? undefined : 'no 304 to If-None-Match') },
  ];
}

function compression() {
  const identity = (answer) => (answer.headers['content-encoding'] === undefined ? undefined : 'a body below the threshold encoded');
  const encoded = (encoding) => (answer) =>
    answer.status === 200 && answer.headers['content-encoding'] === encoding && /accept-encoding/i.test(String(answer.headers.vary)) && isDeepStrictEqual(answer.json, REPORT) && answer.bytes < answer.text.length / 3
      ? undefined
      : `not the report ${encoding}-encoded with Vary: Accept-Encoding`;
  return [
    get('GET /tasks/1, below the threshold', '/tasks/1', { 'accept-encoding': 'gzip, deflate, br' }, both(isTask, identity)),
    get(`GET ${REPORT_PATH}, gzip`, REPORT_PATH, { 'accept-encoding': 'gzip' }, encoded('gzip')),
    get(`GET ${REPORT_PATH}, br`, REPORT_PATH, { 'accept-encoding': 'br' }, encoded('br')),
  ];
}

/** Counted in Redis: a key under the framework's prefix after the request. */
function redisRateLimit(/** @type {'trellis' | 'fastify'} */ framework, /** @type {string} */ url) {
  return [
    ...rateLimit(),
    {
      label: `a key under ${PREFIXES[framework]} in Redis`,
      run: async () => {
        const { withRedis } = require('./redis');
        const keys = await withRedis(url, (redis) => redis.keys(`${PREFIXES[framework]}*`));
        return keys.length ? undefined : `no key under ${PREFIXES[framework]} in Redis`;
      },
    },
  ];
}

function websocket() {
  return [
    get('GET /tasks/1', '/tasks/1', {}, isTask),
    {
      label: `WebSocket ${ECHO_PATH}: the echo, then an error frame to a frame that is not JSON`,
      run: async (port) => {
        const [echo, error] = await exchange(port, ECHO_PATH, [MESSAGE, 'not json']);
        if (echo !== EXPECTED) return `echo answered ${echo}`;
        return JSON.parse(error)?.event === 'error' ? undefined : `not JSON answered ${error}`;
      },
    },
    get('GET /memory, collected', '/memory', {}, (answer) => (answer.json?.collected === true ? undefined : 'no memoryUsage after gc()')),
  ];
}

const bearer = (token) => ({ authorization: `Bearer ${token}` });

/** What an upgrade of `path` with `headers` gets: undefined when it is refused with `status`, else what is wrong. */
async function upgradeRefused(port, path, headers, status) {
  try {
    (await openSocket(port, path, 10_000, headers)).terminate();
    return 'upgraded';
  } catch (error) {
    const got = /** @type {{ status?: number }} */ (error).status;
    return got === status ? undefined : `not ${status}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * The guarded echo at `path`: upgraded with the token and echoing (an error frame to a frame that is not JSON), the
 * upgrade refused 401 with no token and with one signed by another secret, and a valid token without the echo's
 * scope upgraded but each echo answered the scope refusal, not the echo.
 */
function guardedWebsocket(path = GUARDED_PATH) {
  const now = Math.floor(Date.now() / 1000);
  const forged = signHs256('another-secret-of-at-least-32-bytes-0123456789', { sub: 'bench', scope: ECHO_SCOPE, iat: now, exp: now + 3600 });
  return [
    get('GET /tasks/1', '/tasks/1', {}, isTask),
    {
      label: `WebSocket ${path} with the token: the echo, then an error frame to a frame that is not JSON`,
      run: async (port) => {
        const [echo, error] = await exchange(port, path, [MESSAGE, 'not json'], 15_000, bearer(TOKEN));
        if (echo !== EXPECTED) return `echo answered ${echo}`;
        return JSON.parse(error)?.event === 'error' ? undefined : `not JSON answered ${error}`;
      },
    },
    { label: `WebSocket ${path} without a token: the upgrade refused 401`, run: (port) => upgradeRefused(port, path, undefined, 401) },
    { label: `WebSocket ${path}, a token of another secret: the upgrade refused 401`, run: (port) => upgradeRefused(port, path, bearer(forged), 401) },
    {
      label: `WebSocket ${path}, a token without the scope ${ECHO_SCOPE}: each echo refused`,
      run: async (port) => {
        const answers = await exchange(port, path, [MESSAGE, MESSAGE], 15_000, bearer(UNSCOPED_TOKEN));
        const wrong = answers.find((answer) => answer !== SCOPE_REFUSAL);
        return wrong === undefined ? undefined : `answered ${wrong}`;
      },
    },
  ];
}

module.exports = { TASK, plain, task, cors, rateLimit, etag, compression, redisRateLimit, websocket, guardedWebsocket };
