#!/usr/bin/env node
'use strict';
// What shaping a JSON body to its declared type costs per response, in one process: a handler's return value
// turned into the Response trellis writes (framework/result.ts toResponse), for a Task-sized object.
//   JSON.stringify            toResponse without a shape (a route with no known type, or shapeResponse: false)
//   shaped (source type)      toResponse with the route's shape compiled from a TypeTable schema (Task)
//   shaped (response class)   toResponse with the shape of `response: TaskOut` (class-validator rules)
//   shaped, 1 extra property  the same Task with a `passwordHash`-like property the shape leaves out
//   shaped, list of 20        a `Task[]` of 20 (and JSON.stringify of the same list)
// Blocks of 200,000 responses, the variants interleaved; the minimum and median of the blocks.
//
//   taskset -c 0 node bench/micro/response-shape.js [rounds, default 30]
require('../../register.js');
require('reflect-metadata');
const { IsBoolean, IsInt, IsOptional, IsString } = require('class-validator');
const { toResponse } = require('../../framework/result');
const { ResponseShaper } = require('../../framework/pipeline/response-shape');

class TaskOut {}
IsInt()(TaskOut.prototype, 'id');
IsString()(TaskOut.prototype, 'title');
IsOptional()(TaskOut.prototype, 'description');
IsString()(TaskOut.prototype, 'description');
IsBoolean()(TaskOut.prototype, 'completed');

const Task = {
  type: 'object',
  properties: { id: { type: 'number' }, title: { type: 'string' }, description: { type: 'string' }, completed: { type: 'boolean' } },
  required: ['id', 'title', 'completed'],
  additionalProperties: false,
};
const FILE = '/bench/routers/tasks.ts';
/** @type {import('../../framework/source/types/table').TypeTable} */
const table = {
  files: {
    [FILE]: {
      'TaskRouter.one': { returns: { kind: 'json', schema: { $ref: '#/components/schemas/Task' } } },
      'TaskRouter.list': { returns: { kind: 'json', schema: { type: 'array', items: { $ref: '#/components/schemas/Task' } } } },
    },
  },
  schemas: { Task },
};
class TaskRouter {}
/** The parts of a RouteInfo the shaper reads. @returns {any} */
const route = (handlerName, options = {}) => ({ router: TaskRouter, handlerName, label: `TaskRouter.${handlerName}`, options, source: { file: FILE, line: 1 } });
const shaper = new ResponseShaper(table);
const fromTable = shaper.shapesOf(route('one'));
const fromClass = shaper.shapesOf(route('other', { response: TaskOut }));
const listShape = shaper.shapesOf(route('list'));

const task = (i) => ({ id: i, title: 'Read the trellis README', description: 'Start with the quick start, then the routing section', completed: (i & 1) === 0 });
const withHash = (i) => ({ ...task(i), passwordHash: 'scrypt$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2g' });
const TASKS = Array.from({ length: 64 }, (_, i) => task(i));
const HASHED = Array.from({ length: 64 }, (_, i) => withHash(i));
const LIST = Array.from({ length: 20 }, (_, i) => task(i));

let sink = 0;
/** The length of a JSON response's body (a string). @param {import('../../framework/response').Response} response */
const size = (response) => /** @type {string} */ (response.body).length;
const variants = {
  'JSON.stringify': (i) => (sink += size(toResponse(TASKS[i & 63]))),
  'shaped (source type)': (i) => (sink += size(toResponse(TASKS[i & 63], 200, fromTable))),
  'shaped (response class)': (i) => (sink += size(toResponse(TASKS[i & 63], 200, fromClass))),
  'JSON.stringify, 1 extra property': (i) => (sink += size(toResponse(HASHED[i & 63]))),
  'shaped, 1 extra property left out': (i) => (sink += size(toResponse(HASHED[i & 63], 200, fromTable))),
  'JSON.stringify, list of 20': () => (sink += size(toResponse(LIST))),
  'shaped, list of 20': () => (sink += size(toResponse(LIST, 200, listShape))),
};

const N = 200_000;
function block(fn) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < N; i++) fn(i);
  return Number(process.hrtime.bigint() - started) / N;
}

const rounds = Number(process.argv[2] ?? 30);
const results = {};
for (let round = 0; round < rounds; round++) for (const [name, fn] of Object.entries(variants)) (results[name] ??= []).push(block(fn));
const at = (list, q) => [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) * q)];
for (const [name, list] of Object.entries(results)) {
  console.log(`${name.padEnd(36)} ns: min ${Math.min(...list).toFixed(0).padStart(5)}  median ${at(list, 0.5).toFixed(0).padStart(5)}`);
}
if (sink === 0) console.log('');
