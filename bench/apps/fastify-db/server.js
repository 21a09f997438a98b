'use strict';
// Fastify 5 on a database: GET /tasks/:id and POST /tasks of the `trellis create --db` sample, through the same
// driver, pool size and Kysely queries (./open.js, ./queries.js), with the sample's validation of the body
// (TaskIn: title 1-200 characters, description up to 2,000, completed a boolean) as a JSON schema (Ajv).
// FASTIFY_LOGGER=1 turns Fastify's request logging on (pino to stdout), beside a built trellis app's access log.
// Waits for the database before listening, as the sample opens it in its startup phase; closes it on SIGTERM.
const Fastify = require('fastify');
const { openDatabase } = require('./open');
const { addTask, getTask } = require('./queries');

const db = openDatabase();
const app = Fastify({ logger: process.env.FASTIFY_LOGGER === '1' });

app.get(
  '/tasks/:id',
  { schema: { params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } } },
  async (request, reply) => {
    const { id } = /** @type {{ id: number }} */ (request.params);
    const task = await getTask(db, id);
    if (!task) return reply.code(404).send({ detail: `Task ${id} not found` });
    return task;
  },
);

const taskSchema = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 200 },
    description: { type: 'string', maxLength: 2000 },
    completed: { type: 'boolean' },
  },
  required: ['title'],
};

app.post('/tasks', { schema: { body: taskSchema } }, async (request, reply) => {
  reply.code(201);
  return addTask(db, /** @type {{ title: string }} */ (request.body));
});

app.addHook('onClose', () => db.destroy());
process.once('SIGTERM', () => app.close().then(() => process.exit(0)));

db.selectNoFrom((eb) => eb.lit(1).as('one'))
  .execute()
  .then(() => app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
