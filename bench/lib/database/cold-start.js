'use strict';
// What the database adds to a start: spawn to the first 200 on GET /tasks/1 of `npm run dev` (trellis run --reload,
// migrate 'latest') and of a built app (`node dist/main.js`, migrate 'check'), the --db sample against the in-memory
// one, interleaved and pinned as the main run's cold-start phase. The --db starts find the migrated PGlite a
// project has after its first `npm run dev`; the very first start (an empty data folder: initdb and every
// migration) and a built app on PostgreSQL are measured beside them, outside the target.
const path = require('node:path');
const { descendants } = require('../proc');
const { startServer } = require('../server');
const { rotate, summarize } = require('../stats');
const { inDir } = require('./contenders');
const { resetPglite } = require('./fresh');

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const TOKEN = { ADMIN_TOKEN: 'bench-admin-token' };

/**
 * @param {{ memoryDir: string, dbDir: string, dataDir: string, pgliteTemplate: string, databases: ReturnType<import('./postgres').serverDatabases> }} setup
 * @returns {import('./contenders').DbContender[]}
 */
function startContenders({ memoryDir, dbDir, dataDir, pgliteTemplate, databases }) {
  // npm runs the script in the project's folder; what follows `--` reaches `trellis run . --reload`.
  const dev = (dir) => (port) => [npm, '--prefix', dir, 'run', 'dev', '--', '--host', '127.0.0.1', '--port', String(port)];
  const built = (dir) => () => inDir(dir, [process.execPath, path.join('dist', 'main.js')]);
  const devEnv = { NODE_ENV: 'development', DATABASE_URL: '' };
  const builtEnv = { HOST: '127.0.0.1', DATABASE_URL: '', ...TOKEN };
  const none = async () => {};
  return [
    { id: 'dev-memory', label: 'npm run dev, in-memory sample', backend: 'pglite', command: dev(memoryDir), env: devEnv, fresh: none },
    { id: 'dev-db', label: 'npm run dev, --db sample (PGlite, migrated)', backend: 'pglite', command: dev(dbDir), env: devEnv, fresh: async () => resetPglite(pgliteTemplate, dataDir) },
    { id: 'built-memory', label: 'node dist/main.js, in-memory sample', backend: 'pglite', command: built(memoryDir), env: builtEnv, fresh: none },
    { id: 'built-db', label: 'node dist/main.js, --db sample (PGlite)', backend: 'pglite', command: built(dbDir), env: builtEnv, fresh: async () => resetPglite(pgliteTemplate, dataDir) },
    {
      id: 'built-db-postgres',
      label: 'node dist/main.js, --db sample (PostgreSQL)',
      backend: 'postgres',
      command: built(dbDir),
      env: { ...builtEnv, DATABASE_URL: databases.url('start') },
      fresh: async () => void (await databases.copy('template', 'start')),
    },
    { id: 'dev-db-first', label: 'npm run dev, --db sample, first start (empty data folder)', backend: 'pglite', command: dev(dbDir), env: devEnv, fresh: async () => resetPglite(null, dataDir) },
  ];
}

/** Resolves once none of `pids` runs any more. */
async function exited(pids) {
  const running = (pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  while (pids.some(running)) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** The figures the issue targets: the --db start less the in-memory one (under 300 ms each). */
const ADDED = /** @type {Array<[string, string, string]>} */ ([
  ['npm run dev', 'dev-db', 'dev-memory'],
  ['node dist/main.js', 'built-db', 'built-memory'],
]);

/**
 * Resolves to `{ times: { [contenderId]: summary of ms }, leftOut: [{ id, reason }] }`: `runs` starts of each, the
 * order rotated every run. A contender that fails to start is left out from then on; the others go on.
 * @param {import('./contenders').DbContender[]} contenders
 * @param {{ pin: any, runs: number, log: (line: string) => void }} options
 */
async function runStarts(contenders, { pin, runs, log }) {
  /** @type {Record<string, number[]>} */
  const times = {};
  /** @type {Array<{ id: string, reason: string }>} */
  const leftOut = [];
  for (let run = 0; run < runs; run++) {
    for (const contender of rotate(contenders, run)) {
      if (leftOut.some((l) => l.id === contender.id)) continue;
      await contender.fresh();
      let server;
      try {
        server = await startServer(contender, pin, { timeoutMs: 60_000 });
      } catch (error) {
        const reason = String(error instanceof Error ? error.message : error).trim().replace(/:$/, '').split('\n').slice(0, 3).join(' ');
        leftOut.push({ id: contender.id, reason });
        log(`left out ${contender.id}: ${reason}`);
        continue;
      }
      // npm's children (the reload supervisor, the app holding the data folder's lock) are gone before the next start.
      const children = descendants(server.pid);
      await server.stop();
      await exited(children);
      (times[contender.id] ??= []).push(server.coldStartMs);
    }
    log(`start ${run + 1}/${runs}: ${contenders.filter((c) => times[c.id]).map((c) => `${c.id} ${Math.round(times[c.id].at(-1) ?? NaN)} ms`).join(', ')}`);
  }
  return { times: Object.fromEntries(Object.entries(times).map(([id, list]) => [id, summarize(list)])), leftOut };
}

module.exports = { startContenders, runStarts, ADDED };
