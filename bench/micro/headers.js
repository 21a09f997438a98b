#!/usr/bin/env node
'use strict';
// The headers of one JSON response, from the response object to Node's header block: made as trellis makes them
// (ResponseHeaders, an ordinary object), as it made them before (the same on `Object.create(null)`, which V8 keeps as
// a dictionary), and with the built-in `Headers` turned into the object `writeHead` takes. Each variant then adds the
// two headers writeResponse adds and calls Node's `writeHead` on a ServerResponse with no socket (Node builds the
// header block there, as it does for every response). CPU ns per response, variants interleaved in blocks.
//
//   taskset -c 0 node bench/micro/headers.js [rounds, default 30]
require('../../register.js');
const { IncomingMessage, ServerResponse } = require('node:http');
const { Socket } = require('node:net');
const { ResponseHeaders } = require('../../framework/response');

const JSON_TYPE = 'application/json; charset=utf-8';
const request = new IncomingMessage(new Socket());
request.method = 'GET';
request.httpVersionMajor = 1;
request.httpVersionMinor = 1;

// ResponseHeaders as it was: the same methods over a null-prototype object.
class NullPrototypeHeaders {
  #values = Object.create(null);
  has(name) { return name.toLowerCase() in this.#values; }
  set(name, value) { this.#values[name.toLowerCase()] = value; return this; }
  toObject() { return this.#values; }
}

const send = (headers) => {
  headers['x-request-id'] = 'f3a1c2d4-17';
  headers['x-content-type-options'] ??= 'nosniff';
  headers['content-length'] = '96';
  new ServerResponse(request).writeHead(200, headers);
};

const variants = {
  'ResponseHeaders (ordinary object, now)': () => {
    const headers = new ResponseHeaders();
    if (!headers.has('content-type')) headers.set('content-type', JSON_TYPE);
    send(headers.toObject());
  },
  'null-prototype object (before)': () => {
    const headers = new NullPrototypeHeaders();
    if (!headers.has('content-type')) headers.set('content-type', JSON_TYPE);
    send(headers.toObject());
  },
  'built-in Headers': () => {
    const headers = new Headers();
    if (!headers.has('content-type')) headers.set('content-type', JSON_TYPE);
    send(Object.fromEntries(headers));
  },
  'ServerResponse alone (the floor)': () => {
    new ServerResponse(request);
  },
};

const rounds = Number(process.argv[2] ?? 30);
const perBlock = 20_000;
const samples = Object.fromEntries(Object.keys(variants).map((name) => [name, /** @type {number[]} */ ([])]));
for (let round = 0; round < rounds + 3; round++) {
  for (const [name, run] of Object.entries(variants)) {
    const started = process.cpuUsage();
    for (let i = 0; i < perBlock; i++) run();
    const { user, system } = process.cpuUsage(started);
    if (round >= 3) samples[name].push(((user + system) * 1000) / perBlock); // three rounds of warm-up
  }
}
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [name, values] of Object.entries(samples)) console.log(`${name.padEnd(40)} ${Math.round(median(values))} ns per response`);
