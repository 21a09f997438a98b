'use strict';
// The servers compared: each is a command line that listens on 127.0.0.1:<port> and serves the four endpoints.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const app = (file) => path.join('bench', 'apps', file);
/** A contender's command: node with `args`. */
const node = (...args) => () => [process.execPath, ...args];
/** A contender's command: a TypeScript app in bench/apps (`file` relative to it) through register.js. */
const ts = (file) => node('-r', './register.js', app(file));

/** The installed version of a peer: bench's own node_modules (bench/package.json), else the repository's. */
function versionOf(name) {
  for (const modules of [path.join(ROOT, 'bench', 'node_modules'), path.join(ROOT, 'node_modules')]) {
    try {
      return JSON.parse(fs.readFileSync(path.join(modules, name, 'package.json'), 'utf8')).version;
    } catch {
      // not installed there
    }
  }
  return '?';
}

/**
 * The version of the Express a peer runs on: the one its own `require('express')` finds (routing-controllers lists
 * Express 4 as an optional dependency; bench/package.json's `overrides` puts it on Express 5).
 */
function expressUnder(peer) {
  try {
    const from = path.join(ROOT, 'bench', 'node_modules', peer);
    return JSON.parse(fs.readFileSync(require.resolve('express/package.json', { paths: [from] }), 'utf8')).version;
  } catch {
    return '?';
  }
}

/**
 * @typedef {object} Contender
 * @property {string} id
 * @property {string} [label]
 * @property {(port: number) => string[]} command argv of a server listening on 127.0.0.1:port
 * @property {Record<string, string>} [env]
 * @property {string} [readyPath] what answers 200 once it serves (default GET /tasks/1)
 * @property {Record<string, string>} [readyHeaders] headers of that readiness request (a token, where it needs one)
 * @property {Array<{ label: string, path: string, method?: string, headers?: Record<string, string>, body?: unknown, status: number[], check: (json: any) => boolean }>} [checks]
 *   the requests the check before measuring sends it (default the four endpoints)
 * @property {string} [note] a behaviour of the contender that shows in its numbers
 */

/**
 * Every contender: `id` (for --only), `label` (for the report), `command(port)` (argv; PORT is also in
 * the environment). `sampleDir` is the project made by `trellis create` for the `trellis run` contender,
 * or undefined when the CLI cannot make one (the contender is then left out, and the report says why).
 * `builtDir` is a copy of it built by `trellis build`, served by `node dist/main.js`.
 * @param {string} [sampleDir]
 * @param {string} [builtDir]
 * @returns {Contender[]}
 */
function contenders(sampleDir, builtDir) {
  /** @type {Contender[]} */
  const list = [
    { id: 'raw', label: 'raw node:http', command: node(app('raw.js')) },
    { id: 'express', label: `Express ${versionOf('express')}`, command: node(app('express.js')) },
    { id: 'fastify', label: `Fastify ${versionOf('fastify')}`, command: node(app('fastify.js')) },
    {
      id: 'fastify-logged',
      label: `Fastify ${versionOf('fastify')}, request logging on`,
      command: node(app('fastify.js')),
      env: { FASTIFY_LOGGER: '1' },
    },
    {
      id: 'fastify-headers',
      label: `Fastify ${versionOf('fastify')}, trellis's two headers`,
      command: node(app('fastify.js')),
      env: { FASTIFY_HEADERS: '1' },
    },
    { id: 'hono', label: `Hono ${versionOf('hono')}`, command: node(app('hono.js')) },
    {
      id: 'routing-controllers',
      label: `routing-controllers ${versionOf('routing-controllers')} (Express ${expressUnder('routing-controllers')})`,
      command: ts('routing-controllers.ts'),
      note:
        'after answering 400 to an invalid body it passes the error on to Express, whose final handler logs the ' +
        'stack to stderr and closes the connection (wrk counts a read error per request; each one reconnects)',
    },
    { id: 'nest', label: `NestJS ${versionOf('@nestjs/core')}`, command: ts('nest.ts') },
    { id: 'trellis', label: 'trellis (BaseRouter)', command: ts('trellis.ts') },
  ];
  if (sampleDir) {
    list.push({
      id: 'trellis-sample',
      label: 'trellis (sample, no CLI)',
      command: ts('trellis-sample.ts'),
      env: { SAMPLE_DIR: sampleDir },
    });
    const run = (port) => [process.execPath, 'bin/trellis.js', 'run', sampleDir, '--host', '127.0.0.1', '--port', String(port)];
    list.push({ id: 'trellis-run', label: 'trellis run (sample)', command: run });
    list.push({ id: 'trellis-run-quiet', label: 'trellis run --no-access-log', command: (port) => [...run(port), '--no-access-log'] });
  }
  if (builtDir) {
    list.push({
      id: 'trellis-built',
      label: 'node dist/main.js (sample, built, access log on)',
      // PORT (set for every contender) and HOST reach the built app as they reach `trellis run`'s flags; a built
      // app reads no .env, so the admin token its config.yaml wants comes from the environment, as in production.
      // Its access log is on (config.yaml's default), as users run it.
      command: node(path.join(builtDir, 'dist', 'main.js')),
      env: { HOST: '127.0.0.1', ADMIN_TOKEN: 'bench-admin-token' },
    });
    // `npx trellis run` as a user of the package runs it: the installed CLI (dist/, with the runtime bundle
    // `npm pack` wrote), not this checkout's TypeScript sources.
    list.push({
      id: 'trellis-run-installed',
      label: 'trellis run (sample, installed package)',
      command: (port) => [process.execPath, path.join(builtDir, 'node_modules', 'trellis', 'bin', 'trellis.js'), 'run', builtDir, '--host', '127.0.0.1', '--port', String(port)],
      env: { ADMIN_TOKEN: 'bench-admin-token' },
    });
  }
  return list;
}

const ALL_IDS = ['raw', 'express', 'fastify', 'fastify-logged', 'fastify-headers', 'hono', 'routing-controllers', 'nest', 'trellis', 'trellis-sample', 'trellis-run', 'trellis-run-quiet', 'trellis-built', 'trellis-run-installed'];

module.exports = { contenders, ALL_IDS, versionOf, expressUnder, node, ts };
