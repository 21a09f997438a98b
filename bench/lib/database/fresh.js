'use strict';
// Migrated databases made once per run with the sample's own migrations (its built dist/migrations, through the
// trellis/database its production install holds), then copied before every server start: an embedded PGlite folder
// copied file by file, a PostgreSQL database copied by CREATE DATABASE ... TEMPLATE (./postgres.js).
const fs = require('node:fs');
const path = require('node:path');

/**
 * The `trellis/database` entry a built sample loads (its node_modules), as `trellis db migrate` uses it.
 * @param {string} builtDir
 * @returns {{ migrateToLatest(options: { url?: string, dataDir?: string, migrations?: string }): Promise<{ applied: string[] }> }}
 */
function trellisDatabaseOf(builtDir) {
  return require(require.resolve('trellis/database', { paths: [builtDir] }));
}

/** The folder of the built sample's compiled migrations. */
function migrationsOf(builtDir) {
  const dir = path.join(builtDir, 'dist', 'migrations');
  if (!fs.existsSync(dir)) throw new Error(`${dir} is missing: the --db sample's build carries no migrations`);
  return dir;
}

/**
 * Migrates a new embedded database in `dataDir` with the sample's migrations; resolves to the names applied.
 * @param {string} builtDir
 * @param {string} dataDir
 */
async function migratedPglite(builtDir, dataDir) {
  fs.rmSync(dataDir, { recursive: true, force: true });
  const { applied } = await trellisDatabaseOf(builtDir).migrateToLatest({ dataDir, migrations: migrationsOf(builtDir) });
  return applied;
}

/**
 * Migrates the (empty) PostgreSQL database at `url` with the sample's migrations; resolves to the names applied.
 * @param {string} builtDir
 * @param {string} url
 */
async function migratedPostgres(builtDir, url) {
  const { applied } = await trellisDatabaseOf(builtDir).migrateToLatest({ url, migrations: migrationsOf(builtDir) });
  return applied;
}

/** Replaces the embedded database at `dataDir` (and its lock file) with a copy of `template`; none when `template` is null. */
function resetPglite(template, dataDir) {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(`${dataDir}.lock`, { force: true });
  if (template) fs.cpSync(template, dataDir, { recursive: true });
}

module.exports = { migratedPglite, migratedPostgres, resetPglite, migrationsOf };
