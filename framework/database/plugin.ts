import { Kysely } from 'kysely';
import type { Plugin } from '../plugin/plugin';
import { openDatabase, type OpenDatabase } from './connection';
import { applyPending, checkApplied, migratorOf } from './migrations';
import { databaseSettings, type DatabaseOptions, type DatabaseSettings } from './options';

/** How long the readiness check's `select 1` may take: shorter than `/readyz`'s own timeout. */
const PING_TIMEOUT_MS = 2_000;

/**
 * The database as a plug-in (name `database`): in the startup phase it opens the pool (or the embedded PGlite,
 * under its folder's lock) with a `select 1`, then migrates or checks as `migrate` says; services receive the
 * `Kysely` instance by constructor type; `/readyz` runs `select 1`; after the drain, `db.destroy()`.
 *
 * @example
 * ```ts
 * import { Injectable } from 'trellis';
 * import { database } from 'trellis/database';
 * import { Kysely } from 'kysely';
 *
 * @Injectable()
 * class TaskService {
 *   constructor(private readonly db: Kysely<any>) {}
 *   list() { return this.db.selectFrom('tasks').selectAll().execute(); }
 * }
 * app.register(database({ url: process.env.DATABASE_URL, migrations: 'migrations', migrate: 'latest' })).provide(TaskService);
 * ```
 */
export function database(options: DatabaseOptions = {}): Plugin {
  const settings = databaseSettings(options);
  return {
    name: 'database',
    register(host) {
      const opened = openDatabase(settings, host.app.logger);
      host.provide({ provide: Kysely, useValue: opened.db });
      host.onStartup(async () => {
        try {
          await start(opened, settings);
        } catch (error) {
          // This hook failed, so the app will not run its onShutdown: close here.
          await opened.close().catch(() => {});
          throw error;
        }
        host.app.logger.info({ database: opened.address }, 'database ready');
      });
      host.healthCheck(() => withTimeout(opened.ping(), PING_TIMEOUT_MS));
      host.onShutdown(() => opened.close());
    },
  };
}

async function start(opened: OpenDatabase, settings: DatabaseSettings): Promise<void> {
  await opened.connect();
  if (settings.migrate === 'off') return;
  const migrator = migratorOf(opened.db, settings.migrations);
  if (settings.migrate === 'latest') await applyPending(migrator);
  else await checkApplied(migrator);
}

/** `work`, or a rejection once `ms` have passed. */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
