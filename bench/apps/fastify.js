'use strict';
// Fastify 5 with JSON-schema validation (Ajv) of params, query and body; no response schemas, so every
// contender serialises with JSON.stringify. Logger off (the default); FASTIFY_LOGGER=1 turns Fastify's own request
// logging on (pino to stdout: "incoming request" and "request completed" per request), the contender that
// stands beside a trellis app with its access log on. FASTIFY_HEADERS=1 sends the two headers every trellis response
// carries (its request id as `X-Request-Id`, `X-Content-Type-Options: nosniff`) from an onRequest hook, as a
// Fastify user adds them (@fastify/helmet sets its headers the same way): the like-for-like contender.
const Fastify = require('fastify');
const { tasks, searchProducts } = require('./shared/store');

const app = Fastify({ logger: process.env.FASTIFY_LOGGER === '1' });

if (process.env.FASTIFY_HEADERS === '1') {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    done();
  });
}

app.get(
  '/tasks/:id',
  { schema: { params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } } },
  async (request, reply) => {
    const task = tasks.get(/** @type {{ id: number }} */ (request.params).id);
    if (!task) return reply.code(404).send({ error: 'Task not found' });
    return task;
  },
);

const searchSchema = {
  type: 'object',
  properties: {
    q: { type: 'string' },
    category: { type: 'string' },
    min_price: { type: 'number' },
    max_price: { type: 'number' },
    sort: { type: 'string', default: 'name' },
    page: { type: 'integer', default: 1 },
    limit: { type: 'integer', default: 20 },
  },
  required: ['q'],
};

app.get('/products/search', { schema: { querystring: searchSchema } }, async (request) => {
  const query = /** @type {Record<string, any>} */ (request.query);
  const { q, category = null, min_price = null, max_price = null, sort, page, limit } = query;
  return searchProducts({ q, category, min_price, max_price, sort, page, limit });
});

const taskSchema = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 100 },
    description: { type: 'string' },
    completed: { type: 'boolean' },
  },
  required: ['title'],
  additionalProperties: false,
};

app.post('/tasks', { schema: { body: taskSchema } }, async (request, reply) => {
  reply.code(201);
  return tasks.create(request.body);
});

app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
