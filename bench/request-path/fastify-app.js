'use strict';
// The request-path probe's Fastify app: the same two routes as trellis-app.ts, with JSON schemas for the path
// parameter, the body (Ajv) and the responses (fast-json-stringify), as a Fastify user writes them.
const Fastify = require('fastify');

const task = {
  type: 'object',
  properties: { id: { type: 'integer' }, title: { type: 'string' }, description: { type: 'string' }, completed: { type: 'boolean' } },
  required: ['id', 'title', 'completed'],
};
const taskIn = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 200 },
    description: { type: 'string', maxLength: 2000, default: '' },
    completed: { type: 'boolean', default: false },
  },
  required: ['title'],
  additionalProperties: false,
};

const tasks = new Map([[1, { id: 1, title: 'Read the trellis README', completed: false }]]);
let nextId = 2;

const app = Fastify();

app.get(
  '/tasks/:task_id',
  { schema: { params: { type: 'object', properties: { task_id: { type: 'integer' } }, required: ['task_id'] }, response: { 200: task, 404: { type: 'object', properties: { error: { type: 'string' } } } } } },
  async (request, reply) => {
    const found = tasks.get(/** @type {{ task_id: number }} */ (request.params).task_id);
    if (!found) return reply.code(404).send({ error: `Task ${/** @type {any} */ (request.params).task_id} not found` });
    return found;
  },
);

app.post('/tasks', { schema: { body: taskIn, response: { 201: task } } }, async (request, reply) => {
  const input = /** @type {{ title: string, description: string, completed: boolean }} */ (request.body);
  const created = { id: nextId++, title: input.title, description: input.description, completed: input.completed };
  tasks.set(created.id, created);
  reply.code(201);
  return created;
});

/** Listens on 127.0.0.1 at a free port; resolves to the port. */
async function serve() {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

module.exports = { serve };
