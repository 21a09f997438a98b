'use strict';
// The servers and measurements of bench/essentials.js. Every server is apps/essentials/trellis.ts or
// apps/essentials/fastify.js with FEATURES (and levels) in its environment; each measurement names the pair it
// compares, `[a, b]`, reported as a / b:
//   overhead     GET /tasks/1 with one feature on against the same app with none (trellis; Fastify's for reference)
//   compression  GET /reports/tasks (20 KB) gzip and br: trellis against Fastify, each at its defaults and at equal levels
//   redis        GET /tasks/1 counted in Redis: trellis's redisStore against @fastify/rate-limit's Redis store
//   websocket    echo round trips per second: a trellis gateway against @fastify/websocket, plain and behind a JWT
//                (trellis: @Use(jwtAuth) on the gateway, @Scopes on the handler; Fastify: @fastify/jwt's jwtVerify in
//                the route's preValidation, the scope checked by hand on each message), the token on the upgrade
//   idle         1,000 idle WebSocket connections: memory before and after (the same pair)
const path = require('node:path');
const { node, versionOf } = require('../contenders');
const { ECHO_PATH, GUARDED_PATH, ORIGIN, REPORT_PATH } = require('../../apps/essentials/config');
const { TOKEN } = require('../../apps/essentials/token');
const checks = require('./checks');

const GROUPS = ['overhead', 'compression', 'redis', 'websocket', 'idle'];
const TRELLIS = path.join('bench', 'apps', 'essentials', 'trellis.ts');
const FASTIFY = path.join('bench', 'apps', 'essentials', 'fastify.js');
const trellisApp = node('--expose-gc', '-r', './register.js', TRELLIS);
const fastifyApp = node('--expose-gc', FASTIFY);

/**
 * @param {{ gzipLevel: number, brotliQuality: number, redisUrl: string }} run the equal levels of the compression
 *   pairs, and the Redis of the redis pair
 * @returns {import('../contenders').Contender[]}
 */
function essentialsContenders({ gzipLevel, brotliQuality, redisUrl }) {
  const fastify = (plugin) => `Fastify ${versionOf('fastify')} + ${plugin} ${versionOf(plugin)}`;
  const equal = { GZIP_LEVEL: String(gzipLevel), BROTLI_QUALITY: String(brotliQuality) };
  const redis = { REDIS_URL: redisUrl };
  const t = (id, label, features, env = {}, list = []) => ({ id, label, command: trellisApp, env: { FEATURES: features, ...env }, checks: list });
  const f = (id, label, features, env = {}, list = []) => ({ id, label, command: fastifyApp, env: { FEATURES: features, ...env }, checks: list });
  return [
    t('trellis-off', 'trellis, no feature', 'none', {}, checks.plain()),
    t('trellis-cors', 'trellis cors()', 'cors', {}, checks.cors()),
    t('trellis-rate-limit', 'trellis rateLimit(), memoryStore', 'rate-limit', {}, checks.rateLimit()),
    t('trellis-etag', 'trellis etag()', 'etag', {}, checks.etag()),
    t('trellis-cors-headers', 'trellis, the two headers CORS adds, constant', 'cors-headers', {}, checks.task()),
    t('trellis-rate-limit-headers', 'trellis, the two headers a rate limit adds, constant', 'rate-limit-headers', {}, checks.task()),
    t('trellis-compression', 'trellis compression(), its defaults', 'compression', {}, checks.compression()),
    t('trellis-compression-equal', `trellis compression(), gzip ${gzipLevel}, brotli ${brotliQuality}`, 'compression', equal, checks.compression()),
    t('trellis-redis', 'trellis rateLimit(), redisStore', 'redis-rate-limit', redis, checks.redisRateLimit('trellis', redisUrl)),
    t('trellis-ws', 'trellis websockets(), a gateway', 'websocket', {}, checks.websocket()),
    t('trellis-ws-guarded', 'trellis websockets(), a gateway with @Use(jwtAuth()) and a handler with @Scopes()', 'websocket-guarded', {}, checks.guardedWebsocket()),
    f('fastify-off', `Fastify ${versionOf('fastify')}, no plug-in`, 'none', {}, checks.plain()),
    f('fastify-cors', fastify('@fastify/cors'), 'cors', {}, checks.cors()),
    f('fastify-rate-limit', `${fastify('@fastify/rate-limit')}, memory`, 'rate-limit', {}, checks.rateLimit()),
    f('fastify-compression', `${fastify('@fastify/compress')}, its defaults`, 'compression', {}, checks.compression()),
    f('fastify-compression-equal', `${fastify('@fastify/compress')}, gzip ${gzipLevel}, brotli ${brotliQuality}`, 'compression', equal, checks.compression()),
    f('fastify-redis', `${fastify('@fastify/rate-limit')}, Redis (ioredis ${versionOf('ioredis')})`, 'redis-rate-limit', redis, checks.redisRateLimit('fastify', redisUrl)),
    f('fastify-ws', fastify('@fastify/websocket'), 'websocket', {}, checks.websocket()),
    f('fastify-ws-guarded', `${fastify('@fastify/websocket')} + @fastify/jwt ${versionOf('@fastify/jwt')} (preValidation), the scope checked per message`, 'websocket-guarded', {}, checks.guardedWebsocket()),
  ];
}

/**
 * @typedef {object} Measurement
 * @property {string} id
 * @property {string} label
 * @property {string} group one of GROUPS (for --only)
 * @property {'http' | 'echo' | 'idle'} kind wrk, ws-echo-client.js, or idle sockets
 * @property {string} method
 * @property {string} path
 * @property {number[]} status
 * @property {Record<string, string>} [headers] what every measured request carries (an echo's: every upgrade)
 * @property {[string, string]} contenders the pair, reported as the first / the second
 * @property {string} [feature] the feature an overhead pair turns on
 * @property {number} [maxCost] an overhead pair's target: the first at most this fraction slower
 * @property {number} [minRatio] a pair's target: the first / the second at least this (by its rate)
 * @property {boolean} [reference] Fastify's own overhead, beside trellis's
 */

/** @returns {Measurement[]} */
function essentialsMeasurements() {
  /** @returns {Measurement} */
  const get = (group, id, label, requestPath, contenders, more = {}) => ({ id, label, group, kind: 'http', method: 'GET', path: requestPath, status: [200], contenders, ...more });
  const origin = { headers: { origin: ORIGIN } };
  const small = { headers: { 'accept-encoding': 'gzip, deflate, br' } };
  const encoded = (encoding) => ({ headers: { 'accept-encoding': encoding } });
  return [
    get('overhead', 'cors', 'GET /tasks/1, an allowed Origin', '/tasks/1', ['trellis-cors', 'trellis-off'], { ...origin, feature: 'CORS', maxCost: 0.03 }),
    get('overhead', 'rate-limit', 'GET /tasks/1', '/tasks/1', ['trellis-rate-limit', 'trellis-off'], { feature: 'rate limit (memory)', maxCost: 0.03 }),
    get('overhead', 'etag', 'GET /tasks/1', '/tasks/1', ['trellis-etag', 'trellis-off'], { feature: 'ETag' }),
    get('overhead', 'cors-headers', 'GET /tasks/1', '/tasks/1', ['trellis-cors-headers', 'trellis-off'], { feature: 'CORS\'s two headers alone (constant)' }),
    get('overhead', 'rate-limit-headers', 'GET /tasks/1', '/tasks/1', ['trellis-rate-limit-headers', 'trellis-off'], { feature: 'a rate limit\'s two headers alone (constant)' }),
    get('overhead', 'compression-small', 'GET /tasks/1 (68 B), Accept-Encoding', '/tasks/1', ['trellis-compression', 'trellis-off'], { ...small, feature: 'compression (below threshold)' }),
    get('overhead', 'fastify-cors', 'GET /tasks/1, an allowed Origin', '/tasks/1', ['fastify-cors', 'fastify-off'], { ...origin, feature: '@fastify/cors', reference: true }),
    get('overhead', 'fastify-rate-limit', 'GET /tasks/1', '/tasks/1', ['fastify-rate-limit', 'fastify-off'], { feature: '@fastify/rate-limit (memory)', reference: true }),
    get('overhead', 'fastify-compression-small', 'GET /tasks/1 (68 B), Accept-Encoding', '/tasks/1', ['fastify-compression', 'fastify-off'], { ...small, feature: '@fastify/compress (below threshold)', reference: true }),
    get('compression', 'gzip-default', 'gzip, each its defaults', REPORT_PATH, ['trellis-compression', 'fastify-compression'], encoded('gzip')),
    get('compression', 'br-default', 'br, each its defaults', REPORT_PATH, ['trellis-compression', 'fastify-compression'], encoded('br')),
    get('compression', 'gzip-equal', 'gzip, equal levels', REPORT_PATH, ['trellis-compression-equal', 'fastify-compression-equal'], encoded('gzip')),
    get('compression', 'br-equal', 'br, equal levels', REPORT_PATH, ['trellis-compression-equal', 'fastify-compression-equal'], encoded('br')),
    get('redis', 'redis', 'GET /tasks/1, counted in Redis', '/tasks/1', ['trellis-redis', 'fastify-redis']),
    { id: 'echo', label: 'echo round trips', group: 'websocket', kind: /** @type {const} */ ('echo'), method: 'GET', path: ECHO_PATH, status: [101], contenders: /** @type {[string, string]} */ (['trellis-ws', 'fastify-ws']) },
    {
      id: 'echo-guarded',
      label: 'echo round trips, a JWT on the upgrade, its scope checked on each message',
      group: 'websocket',
      kind: /** @type {const} */ ('echo'),
      method: 'GET',
      path: GUARDED_PATH,
      status: [101],
      headers: { authorization: `Bearer ${TOKEN}` },
      minRatio: 1,
      contenders: /** @type {[string, string]} */ (['trellis-ws-guarded', 'fastify-ws-guarded']),
    },
    { id: 'idle', label: 'idle connections', group: 'idle', kind: /** @type {const} */ ('idle'), method: 'GET', path: ECHO_PATH, status: [101], contenders: /** @type {[string, string]} */ (['trellis-ws', 'fastify-ws']) },
  ];
}

module.exports = { GROUPS, essentialsContenders, essentialsMeasurements };
