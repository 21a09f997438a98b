'use strict';
// raw node:http: the physical limit for Node. Routing, query parsing, body reading and validation by hand.
const http = require('node:http');
const querystring = require('node:querystring');
const { tasks, searchProducts } = require('./shared/store');
const { searchQuery, taskErrors, toInt } = require('./shared/checks');

function send(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function readJson(req, res, onBody) {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(res, 400, { error: 'Malformed JSON body' });
    }
    onBody(body);
  });
}

const server = http.createServer((req, res) => {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (req.method === 'GET' && path.startsWith('/tasks/')) {
    const id = toInt(path.slice(7));
    if (id === undefined) return send(res, 422, { error: 'Validation failed', details: [{ field: 'task_id' }] });
    const task = tasks.get(id);
    return task ? send(res, 200, task) : send(res, 404, { error: 'Task not found' });
  }
  if (req.method === 'GET' && path === '/products/search') {
    const params = querystring.parse(q < 0 ? '' : url.slice(q + 1));
    const { query, errors } = searchQuery((name) => {
      const value = params[name];
      return Array.isArray(value) ? value[value.length - 1] : value;
    });
    return errors ? send(res, 422, { error: 'Validation failed', details: errors }) : send(res, 200, searchProducts(query));
  }
  if (req.method === 'POST' && path === '/tasks') {
    return readJson(req, res, (body) => {
      const errors = taskErrors(body);
      if (errors.length) return send(res, 422, { error: 'Validation failed', details: errors });
      send(res, 201, tasks.create(body));
    });
  }
  send(res, 404, { error: 'Not Found' });
});

server.listen(Number(process.env.PORT), '127.0.0.1');
