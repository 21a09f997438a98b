import { openDatabase, type OpenDatabase } from './connection';
import { applyPending, migratorOf, pendingOf } from './migrations';
import { databaseSettings, type DatabaseOptions } from './options';

/**
 * `trellis db migrate`: opens the database (under the embedded folder's lock), applies the pending migrations of
 * `options.migrations` in name order, closes; resolves to the names applied. `options.migrate` is not read.
 *
 * @example
 * ```ts
 * const { applied } = await migrateToLatest({ url: process.env.DATABASE_URL, migrations: 'migrations' });
 * console.log(applied.length ? `applied ${applied.join(', ')}` : 'nothing to apply');
 * ```
 */
export async function migrateToLatest(options: DatabaseOptions): Promise<{ applied: string[] }> {
  return withDatabase(options, async (opened, migrations) => ({ applied: await applyPending(migratorOf(opened.db, migrations)) }));
}

/**
 * `trellis doctor`: the migrations of `options.migrations` the database lacks, in order. Opens the database (under
 * the embedded folder's lock), reads, closes: it writes nothing, not even Kysely's migration table.
 *
 * @example
 * ```ts
 * const pending = await pendingMigrations({ url: process.env.DATABASE_URL, migrations: 'migrations' });
 * if (pending.length) console.log(`pending: ${pending.join(', ')}`);
 * ```
 */
export async function pendingMigrations(options: DatabaseOptions): Promise<string[]> {
  return withDatabase(options, (opened, migrations) => pendingOf(migratorOf(opened.db, migrations)));
}

async function withDatabase<T>(options: DatabaseOptions, work: (opened: OpenDatabase, migrations: string | undefined) => Promise<T>): Promise<T> {
  const settings = databaseSettings(options);
  const opened = openDatabase(settings);
  try {
    await opened.connect();
    return await work(opened, settings.migrations);
  } finally {
    await opened.close();
  }
}
