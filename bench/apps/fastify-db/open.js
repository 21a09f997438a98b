'use strict';
// The peer's database, chosen as the sample chooses it: DATABASE_URL set, PostgreSQL through a pg Pool of DB_POOL
// connections (10 by default, the sample's config.yaml `pool`); otherwise the embedded PGlite in PGLITE_DIR.
// DRIVERS_FROM names a folder whose node_modules kysely, pg and PGlite are loaded from (the --db sample's: the
// versions its production install holds); unset, the repository's.
const { definePGliteDialect } = require('./pglite-dialect');

/** @returns {import('kysely').Kysely<any>} */
function openDatabase(env = process.env) {
  const load = (/** @type {string} */ name) => require(env.DRIVERS_FROM ? require.resolve(name, { paths: [env.DRIVERS_FROM] }) : name);
  /** @type {typeof import('kysely')} */
  const kysely = load('kysely');
  if (env.DATABASE_URL) {
    /** @type {typeof import('pg')} */
    const { Pool } = load('pg');
    const pool = new Pool({ connectionString: env.DATABASE_URL, max: Number(env.DB_POOL ?? 10), connectionTimeoutMillis: 5_000 });
    return new kysely.Kysely({ dialect: new kysely.PostgresDialect({ pool }) });
  }
  if (!env.PGLITE_DIR) throw new Error('set DATABASE_URL or PGLITE_DIR');
  /** @type {typeof import('@electric-sql/pglite')} */
  const { PGlite } = load('@electric-sql/pglite');
  const PGliteDialect = definePGliteDialect(kysely);
  return new kysely.Kysely({ dialect: new PGliteDialect(new PGlite(env.PGLITE_DIR)) });
}

module.exports = { openDatabase };
