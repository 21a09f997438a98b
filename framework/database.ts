/**
 * trellis/database: PostgreSQL for an app, as a plug-in. Kysely for queries and migrations; a PostgreSQL server
 * through a `pg` Pool when a URL is given, else the embedded PGlite in a folder of the project (one process at a
 * time). The only entry that loads kysely, pg or PGlite: an app without a database installs none of them.
 * See docs/reference/database.md.
 *
 * @example
 * ```ts
 * import { BaseRouter } from 'trellis';
 * import { database } from 'trellis/database';
 *
 * const app = new BaseRouter().register(database({ url: process.env.DATABASE_URL, migrations: 'migrations', migrate: 'latest' }));
 * ```
 */
export { database } from './database/plugin';
export type { DatabaseOptions } from './database/options';
export { testDatabase } from './database/test-database';
export type { TestDatabaseOptions } from './database/test-database';
export { migrateToLatest, pendingMigrations } from './database/tools';
