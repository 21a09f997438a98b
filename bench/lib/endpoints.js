'use strict';
// The four measured requests, the same for every contender, with what a correct answer looks like.
const fs = require('node:fs');
const path = require('node:path');

const VALID_TASK = { title: 'Benchmark the framework', description: 'one interleaved run', completed: false };
const INVALID_TASK = { title: '', completed: 'yes' };

const ENDPOINTS = [
  {
    id: 'get-task',
    label: 'GET /tasks/1',
    method: 'GET',
    path: '/tasks/1',
    status: [200],
    check: (json) => json.id === 1 && typeof json.title === 'string',
  },
  {
    id: 'search',
    label: 'GET /products/search',
    method: 'GET',
    path: '/products/search?q=x&page=2&min_price=1.5',
    status: [200],
    check: (json) => json.query?.q === 'x' && json.query.page === 2 && json.query.min_price === 1.5 && Array.isArray(json.items),
  },
  {
    id: 'post-task',
    label: 'POST /tasks',
    method: 'POST',
    path: '/tasks',
    body: VALID_TASK,
    status: [201],
    check: (json) => typeof json.id === 'number' && json.title === VALID_TASK.title,
  },
  {
    id: 'post-invalid',
    label: 'POST /tasks (invalid)',
    method: 'POST',
    path: '/tasks',
    body: INVALID_TASK,
    status: [400, 422],
    check: (json) => json !== null && typeof json === 'object',
  },
];

const luaString = (text) => JSON.stringify(text); // a JSON string literal is a valid Lua string here (ASCII only)

/**
 * Writes one wrk script per endpoint (default the four) into `dir`, with the endpoint's `headers` if any; returns
 * `{ [endpointId]: file }`.
 * @param {string} dir
 * @param {Array<{ id: string, method: string, path: string, body?: unknown, headers?: Record<string, string> }>} [endpoints]
 */
function writeWrkScripts(dir, endpoints = ENDPOINTS) {
  const files = {};
  for (const endpoint of endpoints) {
    const lines = [`wrk.method = ${luaString(endpoint.method)}`, `wrk.path = ${luaString(endpoint.path)}`];
    for (const [name, value] of Object.entries(endpoint.headers ?? {})) lines.push(`wrk.headers[${luaString(name)}] = ${luaString(value)}`);
    if (endpoint.body) {
      lines.push(`wrk.body = ${luaString(JSON.stringify(endpoint.body))}`, 'wrk.headers["Content-Type"] = "application/json"');
    }
    files[endpoint.id] = path.join(dir, `${endpoint.id}.lua`);
    fs.writeFileSync(files[endpoint.id], lines.join('\n') + '\n');
  }
  return files;
}

/**
 * A wrk script cycling through the four requests that exits wrk after `count` responses (memory phase:
 * wrk has no request-count option, and `wrk.thread:stop()` still waits for the full duration).
 */
function writeMixScript(dir, count) {
  const requests = ENDPOINTS.map((e) => {
    const headers = e.body ? '{ ["Content-Type"] = "application/json" }' : 'nil';
    const body = e.body ? luaString(JSON.stringify(e.body)) : 'nil';
    return `  wrk.format(${luaString(e.method)}, ${luaString(e.path)}, ${headers}, ${body}),`;
  });
  const file = path.join(dir, `mix-${count}.lua`);
  fs.writeFileSync(
    file,
    [
      'local requests = {',
      ...requests,
      '}',
      'local sent, received = 0, 0',
      'function request()',
      '  sent = sent + 1',
      '  return requests[(sent - 1) % #requests + 1]',
      'end',
      'function response(status, headers, body)',
      '  received = received + 1',
      `  if received >= ${count} then os.exit(0) end`,
      'end',
      '',
    ].join('\n'),
  );
  return file;
}

module.exports = { ENDPOINTS, writeWrkScripts, writeMixScript };
