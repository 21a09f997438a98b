import { Kysely, sql } from 'kysely';
import type { Plugin } from '../plugin/plugin';
import { applyPending, migratorOf } from './migrations';
import { absolute } from './options';
import { PGliteConnection, PGliteDialect } from './pglite-dialect';
import { openPGlite } from './pglite-open';

/**
 * What {@link testDatabase} takes.
 *
 * @example
 * ```ts
 * const options: TestDatabaseOptions = { migrations: 'migrations' };
 * ```
 */
export interface TestDatabaseOptions {
  /** The folder of migration files, as `DatabaseOptions.migrations`: applied to each fresh database. */
  migrations?: string;
}

// One in-memory PGlite per process, opened by the first test database that starts (opening one costs seconds
// of CPU; a schema in it costs milliseconds), closed once no test database has used it for IDLE_MS: an open
// PGlite keeps Node's process alive, invisibly (no handle is listed), so a test run would never end.
const IDLE_MS = 1_000;
let shared: Promise<PGliteConnection> | undefined;
let schemas = 0;
let users = 0;
let idle: NodeJS.Timeout | undefined;

function sharedConnection(): Promise<PGliteConnection> {
  clearTimeout(idle);
  shared ??= openPGlite(undefined).then((client) => new PGliteConnection(client));
  shared.catch(() => (shared = undefined));
  return shared;
}

function leave(): void {
  users -= 1;
  if (users > 0 || shared === undefined) return;
  const closing = shared;
  idle = setTimeout(() => {
    if (users > 0 || shared !== closing) return;
    shared = undefined;
    void closing.then((connection) => connection.client.close()).catch(() => {});
  }, IDLE_MS);
  idle.unref();
}

/**
 * For tests: the `database` plug-in on a fresh, migrated database of its own. Each instance gets a new schema
 * (`t_1`, `t_2`, ...) of one in-memory PGlite the process shares, created and migrated at startup, its
 * `search_path` set whenever its queries run, dropped at shutdown. Services receive `Kysely` as with `database()`.
 *
 * @example
 * ```ts
 * const app = createApp().register(testDatabase({ migrations: 'migrations' }));
 * const client = new TestClient(app);
 * after(() => client.close());                       // drops the schema
 * ```
 */
export function testDatabase(options: TestDatabaseOptions = {}): Plugin {
  const migrations = options.migrations === undefined ? undefined : absolute(options.migrations);
  return {
    name: 'database',
    register(host) {
      const schema = `t_${++schemas}`;
      const db = new Kysely<any>({
        dialect: new PGliteDialect({
          schema,
          open: sharedConnection,
          close: async () => {},
        }),
      });
      host.provide({ provide: Kysely, useValue: db });
      let joined = false;
      const drop = async () => {
        try {
          await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
          await db.destroy();
        } finally {
          if (joined) leave();
          joined = false;
        }
      };
      host.onStartup(async () => {
        users += 1;
        joined = true;
        await sql`create schema ${sql.id(schema)}`.execute(db);
        try {
          await applyPending(migratorOf(db, migrations, schema));
        } catch (error) {
          // This hook failed, so the app will not run its onShutdown: drop here.
          await drop().catch(() => {});
          throw error;
        }
      });
      host.healthCheck(() => sql`select 1`.execute(db));
      host.onShutdown(drop);
    },
  };
}
