'use strict';
// Fastify 5 with @fastify/jwt as its README sets it up: the plugin registered with the key and the verify options
// (the one algorithm allowed, issuer, audience), an `authenticate` onRequest hook on the guarded route calling
// request.jwtVerify(). Logger off, like apps/fastify.js. Answers GET /tasks/:id as apps/auth/trellis-jwt.ts does.
const Fastify = require('fastify');
const fastifyJwt = require('@fastify/jwt');
const { tasks } = require('../shared/store');
const { AUDIENCE, ISSUER, cacheOn, jwtSettings, taskOf } = require('./config');

const { algorithm, secret, publicKey } = jwtSettings();
const app = Fastify();

app.register(fastifyJwt, {
  secret: secret ?? { public: publicKey },
  verify: { algorithms: [/** @type {'HS256' | 'RS256'} */ (algorithm)], allowedIss: ISSUER, allowedAud: AUDIENCE, cache: cacheOn() },
});

// Errors @fastify/jwt does not map itself (fast-jwt's invalid algorithm or malformed token carry no status) are
// refusals of the token too: 401, as trellis's jwtAuth answers them.
async function authenticate(request, reply) {
  try {
    await request.jwtVerify();
  } catch (error) {
    const status = /** @type {{ statusCode?: number }} */ (error).statusCode;
    return reply.code(status && status < 500 ? status : 401).send(error);
  }
}

app.get(
  '/tasks/:id',
  { onRequest: authenticate, schema: { params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } } },
  async (request, reply) => {
    const task = tasks.get(/** @type {{ id: number }} */ (request.params).id);
    if (!task) return reply.code(404).send({ error: 'Task not found' });
    return taskOf(task, /** @type {{ sub: string }} */ (request.user));
  },
);

app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
