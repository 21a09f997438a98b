'use strict';
// The servers of the database run: the built `--db` sample (`node dist/main.js`, access log on as config.yaml has
// it) and Fastify with its request logging on (apps/fastify-db), each on the embedded PGlite and on PostgreSQL.
// Every contender has a `fresh()` the harness awaits before each start: its database becomes a copy of the
// migrated template again, so each cell starts from the seed tasks (ids 1 and 2) and no table grows across cells.
const path = require('node:path');
const { versionOf } = require('../contenders');
const { resetPglite } = require('./fresh');

const FASTIFY_APP = path.join('bench', 'apps', 'fastify-db', 'server.js');

/**
 * `argv` run in `dir` (`sh` changes folder, then execs it: the pid stays the server's): a built app resolves its
 * embedded database's folder against where it starts, and users start it in the project's folder (`npm start`).
 * @param {string} dir
 * @param {string[]} argv
 */
const inDir = (dir, argv) => ['sh', '-c', 'cd "$0" && exec "$@"', dir, ...argv];

/**
 * @typedef {import('../contenders').Contender & { fresh: () => Promise<void>, backend: 'pglite' | 'postgres' }} DbContender
 */

/**
 * @param {{ builtDir: string, dataDir: string, workDir: string, pool: number, pgliteTemplate: string, databases: ReturnType<import('./postgres').serverDatabases> }} setup
 * @returns {DbContender[]}
 */
function dbContenders({ builtDir, dataDir, workDir, pool, pgliteTemplate, databases }) {
  const built = { command: () => inDir(builtDir, [process.execPath, path.join('dist', 'main.js')]), env: { HOST: '127.0.0.1', ADMIN_TOKEN: 'bench-admin-token' } };
  const fastify = { command: () => [process.execPath, FASTIFY_APP], env: { FASTIFY_LOGGER: '1', DB_POOL: String(pool), DRIVERS_FROM: builtDir } };
  const fastifyLabel = `Fastify ${versionOf('fastify')}, request logging on`;
  const peerDir = path.join(workDir, 'fastify-pglite', 'db');
  return [
    {
      id: 'trellis-pglite',
      label: 'node dist/main.js (--db sample, access log on), PGlite',
      backend: 'pglite',
      ...built,
      env: { ...built.env, DATABASE_URL: '' },
      fresh: async () => resetPglite(pgliteTemplate, dataDir),
    },
    {
      id: 'fastify-pglite',
      label: `${fastifyLabel}, PGlite`,
      backend: 'pglite',
      ...fastify,
      env: { ...fastify.env, DATABASE_URL: '', PGLITE_DIR: peerDir },
      fresh: async () => resetPglite(pgliteTemplate, peerDir),
    },
    {
      id: 'trellis-postgres',
      label: 'node dist/main.js (--db sample, access log on), PostgreSQL',
      backend: 'postgres',
      ...built,
      env: { ...built.env, DATABASE_URL: databases.url('trellis') },
      fresh: async () => void (await databases.copy('template', 'trellis')),
    },
    {
      id: 'fastify-postgres',
      label: `${fastifyLabel}, PostgreSQL`,
      backend: 'postgres',
      ...fastify,
      env: { ...fastify.env, DATABASE_URL: databases.url('fastify') },
      fresh: async () => void (await databases.copy('template', 'fastify')),
    },
  ];
}

/** The pairs whose ratio the issue targets (trellis / Fastify >= 1.0), one per backend. */
const DB_PAIRS = /** @type {Array<[string, string]>} */ ([
  ['trellis-pglite', 'fastify-pglite'],
  ['trellis-postgres', 'fastify-postgres'],
]);

module.exports = { dbContenders, DB_PAIRS, inDir };
