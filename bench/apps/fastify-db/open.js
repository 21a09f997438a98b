'use strict';
// The peer's database, chosen as the sample chooses it: DATABASE_URL set, PostgreSQL through a pg Pool of DB_POOL
// connections (10 by default, the sample's config.yaml `pool`); otherwise the embedded PGlite in PGLITE_DIR.
const { Kysely, PostgresDialect } = require('kysely');

/** @returns {import('kysely').Kysely<any>} */
function openDatabase(env = process.env) {
  if (env.DATABASE_URL) {
    const { Pool } = require('pg');
    const pool = new Pool({ connectionString: env.DATABASE_URL, max: Number(env.DB_POOL ?? 10), connectionTimeoutMillis: 5_000 });
    return new Kysely({ dialect: new PostgresDialect({ pool }) });
  }
  if (!env.PGLITE_DIR) throw new Error('set DATABASE_URL or PGLITE_DIR');
  const { PGlite } = require('@electric-sql/pglite');
  const { PGliteDialect } = require('./pglite-dialect');
  return new Kysely({ dialect: new PGliteDialect(new PGlite(env.PGLITE_DIR)) });
}

module.exports = { openDatabase };
