'use strict';
// What the two essentials apps (trellis.ts, fastify.js) turn on, from the environment bench/essentials.js gives
// them, and the values both use: FEATURES (a comma list of cors, rate-limit, etag, compression, redis-rate-limit,
// websocket, websocket-guarded; none = the plain app), GZIP_LEVEL and BROTLI_QUALITY (unset: each framework's
// default), REDIS_URL.

/** The allowed origin of the CORS cells (a front-end dev server's); every measured request carries it. */
const ORIGIN = 'http://localhost:5173';
/** A rate limit never reached in a run: the cost of counting, never of refusing. */
const LIMIT = 1_000_000_000;
const WINDOW_MS = 60_000;
/** Each framework's own Redis key prefix (bench/essentials.js deletes both before each cell). */
const PREFIXES = { trellis: 'bench-trellis-rl:', fastify: 'bench-fastify-rl:' };
const ECHO_PATH = '/ws/echo';
/** The echo behind a JWT (websocket-guarded): the token checked on the upgrade, its scope on every message. */
const GUARDED_PATH = '/ws/guarded';
/** The HS256 secret both guarded apps verify with (jwtAuth wants at least 32 bytes) and the scope the echo needs. */
const SECRET = 'bench-essentials-websocket-secret-0123456789abcdef0123456789abcdef';
const ECHO_SCOPE = 'echo';
/** The 20 KB answer (./payload.js); the small one is GET /tasks/1 (apps/shared/store.js). */
const REPORT_PATH = '/reports/tasks';
// cors-headers and rate-limit-headers set, on every response, the two constant headers that CORS and a rate limit
// add to GET /tasks/1 (and nothing else): what those bytes cost on the wire, whatever computes them.
const FEATURES = ['cors', 'rate-limit', 'etag', 'compression', 'redis-rate-limit', 'websocket', 'websocket-guarded', 'cors-headers', 'rate-limit-headers'];

/** The features this process turns on; throws on an unknown one. */
function featuresOf(env = process.env) {
  const list = (env.FEATURES ?? '').split(',').map((f) => f.trim()).filter((f) => f && f !== 'none');
  const unknown = list.filter((f) => !FEATURES.includes(f));
  if (unknown.length) throw new Error(`FEATURES: unknown ${unknown.join(', ')} (${FEATURES.join(', ')}, none)`);
  return new Set(list);
}

/** `{ gzip?, brotli? }`: the levels set in the environment (absent: the framework's default). */
function levelsOf(env = process.env) {
  const level = (name) => (env[name] ? Number(env[name]) : undefined);
  return { gzip: level('GZIP_LEVEL'), brotli: level('BROTLI_QUALITY') };
}

/** The Redis both rate-limit apps count on. */
function redisUrl(env = process.env) {
  return env.REDIS_URL || env.TRELLIS_TEST_REDIS_URL || 'redis://127.0.0.1:6379';
}

module.exports = { ORIGIN, LIMIT, WINDOW_MS, PREFIXES, ECHO_PATH, GUARDED_PATH, SECRET, ECHO_SCOPE, REPORT_PATH, FEATURES, featuresOf, levelsOf, redisUrl };
