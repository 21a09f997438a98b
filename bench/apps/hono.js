'use strict';
// Hono on @hono/node-server, with hono/validator and the hand-written checks (no schema library installed).
const { Hono } = require('hono');
const { validator } = require('hono/validator');
const { serve } = require('@hono/node-server');
const { tasks, searchProducts } = require('./shared/store');
const { searchQuery, taskErrors, toInt } = require('./shared/checks');

const app = new Hono();

app.get('/tasks/:id', (c) => {
  const id = toInt(c.req.param('id'));
  if (id === undefined) return c.json({ error: 'id must be an integer' }, 400);
  const task = tasks.get(id);
  return task ? c.json(task) : c.json({ error: 'Task not found' }, 404);
});

app.get(
  '/products/search',
  validator('query', (value, c) => {
    const { query, errors } = searchQuery((name) => {
      const v = value[name];
      return Array.isArray(v) ? v[v.length - 1] : v;
    });
    return errors ? c.json({ error: 'Validation failed', details: errors }, 400) : query;
  }),
  (c) => c.json(searchProducts(c.req.valid('query'))),
);

app.post(
  '/tasks',
  validator('json', (value, c) => {
    const errors = taskErrors(value);
    return errors.length ? c.json({ error: 'Validation failed', details: errors }, 400) : value;
  }),
  (c) => c.json(tasks.create(c.req.valid('json')), 201),
);

serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });
