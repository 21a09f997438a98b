'use strict';
// Express 5 as it comes (default settings), express.json() and the hand-written checks: what an Express user
// writes without a schema library.
const express = require('express');
const { tasks, searchProducts } = require('./shared/store');
const { searchQuery, taskErrors, toInt } = require('./shared/checks');

const app = express();
app.use(express.json());

app.get('/tasks/:id', (req, res) => {
  const id = toInt(req.params.id);
  if (id === undefined) return res.status(400).json({ error: 'id must be an integer' });
  const task = tasks.get(id);
  if (!task) return res.status(404).json({ error: 'Task not found' });
  res.json(task);
});

app.get('/products/search', (req, res) => {
  const { query, errors } = searchQuery((name) => {
    const value = req.query[name];
    return Array.isArray(value) ? value[value.length - 1] : value;
  });
  if (errors) return res.status(400).json({ error: 'Validation failed', details: errors });
  res.json(searchProducts(query));
});

app.post('/tasks', (req, res) => {
  const errors = taskErrors(req.body);
  if (errors.length) return res.status(400).json({ error: 'Validation failed', details: errors });
  res.status(201).json(tasks.create(req.body));
});

app.listen(Number(process.env.PORT), '127.0.0.1');
