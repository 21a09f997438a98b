'use strict';
// Fastify 5 with the plug-ins a Fastify user adds for issue 33's features, each as its README sets it up, logger
// off like apps/fastify.js; FEATURES picks them (./config.js): @fastify/cors, @fastify/rate-limit (memory, or its
// Redis store on an ioredis client), @fastify/compress (GZIP_LEVEL and BROTLI_QUALITY, else its defaults: zlib's
// level 6, brotli quality 4), @fastify/websocket (GET /ws/echo answers {"event":"echo","data":...} to each such
// frame; websocket-guarded: GET /ws/guarded, the same echo behind @fastify/jwt, the token verified by the route's
// preValidation on the upgrade and its expiry and scope checked on each message). Answers GET /tasks/:id, GET
// /reports/tasks (20 KB) and GET /memory as trellis.ts does.
const zlib = require('node:zlib');
const Fastify = require('fastify');
const { tasks } = require('../shared/store');
const { ECHO_PATH, ECHO_SCOPE, GUARDED_PATH, LIMIT, ORIGIN, PREFIXES, REPORT_PATH, SECRET, WINDOW_MS, featuresOf, levelsOf, redisUrl } = require('./config');
const { echoAnswer, guardedEchoAnswer, memoryAnswer } = require('./echo');
const { REPORT } = require('./payload');

/** The plug-ins, awaited before the routes as their READMEs do: their onRoute hooks see only routes added after. */
async function registerFeatures(app, features) {
  if (features.has('cors')) {
    await app.register(require('@fastify/cors'), {
      origin: [ORIGIN],
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['content-type', 'authorization'],
      maxAge: 600,
    });
  }
  if (features.has('rate-limit') || features.has('redis-rate-limit')) {
    const redis = features.has('redis-rate-limit') ? new (require('ioredis').Redis)(redisUrl()) : undefined;
    // The IETF draft's headers (RateLimit-Limit, -Remaining, -Reset), as trellis sends the IETF ones.
    await app.register(require('@fastify/rate-limit'), { max: LIMIT, timeWindow: WINDOW_MS, enableDraftSpec: true, ...(redis ? { redis, nameSpace: PREFIXES.fastify } : {}) });
  }
  if (features.has('compression')) {
    const { gzip, brotli } = levelsOf();
    await app.register(require('@fastify/compress'), {
      threshold: 1024,
      encodings: ['br', 'gzip'],
      ...(gzip === undefined ? {} : { zlibOptions: { level: gzip } }),
      ...(brotli === undefined ? {} : { brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: brotli } } }),
    });
  }
  if (features.has('websocket') || features.has('websocket-guarded')) {
    await app.register(require('@fastify/websocket'), { options: { maxPayload: 65536 } });
  }
  if (features.has('websocket')) {
    app.get(ECHO_PATH, { websocket: true }, (socket) => {
      socket.on('message', (raw) => socket.send(echoAnswer(String(raw))));
    });
  }
  if (features.has('websocket-guarded')) {
    // HS256 only, as jwtAuth({ secret }) accepts; a refused token is @fastify/jwt's 401 on the upgrade.
    await app.register(require('@fastify/jwt'), { secret: SECRET, verify: { algorithms: ['HS256'] } });
    app.get(GUARDED_PATH, { websocket: true, preValidation: async (request) => request.jwtVerify() }, (socket, request) => {
      const user = /** @type {{ scope?: unknown, exp?: unknown }} */ (request.user);
      socket.on('message', (raw) => socket.send(guardedEchoAnswer(String(raw), user, ECHO_SCOPE)));
    });
  }
}

async function main() {
  const app = Fastify();
  await registerFeatures(app, featuresOf());
  app.get('/tasks/:id', { schema: { params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } } }, async (request, reply) => {
    const task = tasks.get(/** @type {{ id: number }} */ (request.params).id);
    if (!task) return reply.code(404).send({ error: 'Task not found' });
    return task;
  });
  app.get(REPORT_PATH, async () => REPORT);
  app.get('/memory', async () => memoryAnswer());
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
