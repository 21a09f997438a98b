import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { TrellisError } from '../framework-error';

const MIGRATION_FILE = /^(?!.*\.d\.[cm]?ts$)(.+)\.(?:[cm]?ts|[cm]?js)$/;

/**
 * The migrations of a folder: each `*.ts`/`*.js` file (not `.d.ts`), `require()`d (so `.ts` loads through
 * trellis's loader under `trellis run` and tests, `.js` in a build), named by its file name without the extension
 * (a build's `0001_tasks.js` is the `0001_tasks.ts` development applied). A folder that does not exist has none.
 */
export class FolderMigrations implements MigrationProvider {
  constructor(private readonly folder: string | undefined) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const migrations: Record<string, Migration> = {};
    if (this.folder === undefined || !existsSync(this.folder)) return migrations;
    for (const file of readdirSync(this.folder).sort()) {
      const name = MIGRATION_FILE.exec(file)?.[1];
      if (name === undefined || Object.hasOwn(migrations, name)) continue;
      let loaded: Partial<Migration>;
      try {
        loaded = require(join(this.folder, file)) as Partial<Migration>;
      } catch (error) {
        throw failed(name, error);
      }
      if (typeof loaded.up !== 'function') throw new TrellisError('TRELLIS_ERR_MIGRATION_FAILED', name, `${file} exports no up(db) function`);
      migrations[name] = { up: loaded.up.bind(loaded), down: typeof loaded.down === 'function' ? loaded.down.bind(loaded) : undefined };
    }
    return migrations;
  }
}

/** Kysely's migrator over `folder`, its table in `schema` when given (the test databases' own schema). */
export function migratorOf(db: Kysely<any>, folder: string | undefined, schema?: string): Migrator {
  return new Migrator({ db, provider: new FolderMigrations(folder), ...(schema === undefined ? {} : { migrationTableSchema: schema }) });
}

/**
 * Applies the pending migrations in name order, under Kysely's migration lock (an advisory lock on PostgreSQL,
 * so instances starting at once apply each migration once), all in one transaction (PostgreSQL's DDL is
 * transactional); resolves to the names applied. A migration that throws is `TRELLIS_ERR_MIGRATION_FAILED` naming
 * it, and none of the batch is applied.
 */
export async function applyPending(migrator: Migrator): Promise<string[]> {
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error !== undefined) {
    if (error instanceof TrellisError) throw error;
    const failure = results.find((result) => result.status === 'Error');
    throw failed(failure?.migrationName ?? '(none: the list itself)', error);
  }
  return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/** The migrations the database lacks, in order (read-only: it creates no table). */
export async function pendingOf(migrator: Migrator): Promise<string[]> {
  return (await migrator.getMigrations()).filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
}

/** Refuses a start while migrations are pending: `TRELLIS_ERR_MIGRATION_PENDING` naming the first. */
export async function checkApplied(migrator: Migrator): Promise<void> {
  const pending = await pendingOf(migrator);
  if (pending.length > 0) throw new TrellisError('TRELLIS_ERR_MIGRATION_PENDING', pending[0], pending.length);
}

function failed(name: string, error: unknown): TrellisError {
  const failure = new TrellisError('TRELLIS_ERR_MIGRATION_FAILED', name, error instanceof Error ? error.message.split('\n')[0] : String(error));
  (failure as Error & { cause?: unknown }).cause = error;
  return failure;
}
