import type { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { Pool } from 'pg';
import type { Logger } from '../core/logger';
import { TrellisError } from '../framework-error';
import { DataLock } from './data-lock';
import { IN_MEMORY, serverAddress, type DatabaseSettings } from './options';
import { PGliteConnection, PGliteDialect } from './pglite-dialect';
import { openPGlite } from './pglite-open';

/** A database as trellis holds it: the Kysely instance (nothing opens until {@link OpenDatabase.connect}), and how to close it. */
export interface OpenDatabase {
  readonly db: Kysely<any>;
  /** How messages name it: `host:port/db`, or the embedded folder. */
  readonly address: string;
  /** Opens it (the lock and PGlite, or the pool's first connection) with a `select 1`: unreachable is a coded error. */
  connect(): Promise<void>;
  /** `select 1` (the readiness check). */
  ping(): Promise<void>;
  /** `db.destroy()`: ends the pool, or closes PGlite and releases the folder's lock. */
  close(): Promise<void>;
}

/** The database `settings` name: a `pg` Pool of `settings.pool` connections for a URL, else the embedded PGlite. */
export function openDatabase(settings: DatabaseSettings, logger?: Logger): OpenDatabase {
  return settings.url === undefined ? embedded(settings.dataDir) : server(settings.url, settings.pool, logger);
}

function server(url: string, max: number, logger: Logger | undefined): OpenDatabase {
  const address = serverAddress(url);
  const pool = async (): Promise<Pool> => {
    const { Pool: PgPool } = require('pg') as typeof import('pg');
    const created = new PgPool({ connectionString: url, max, connectionTimeoutMillis: 5_000 });
    // A connection the server drops emits 'error': the pool hears its idle ones and re-emits them here; one in use
    // has no listener but this (its query fails on its own). Unheard, either would end the process.
    created.on('error', (error) => logger?.warn({ err: error.message, database: address }, 'database connection lost'));
    created.on('connect', (client) => client.on('error', () => {}));
    return created;
  };
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    address,
    async connect() {
      try {
        await selectOne(db);
      } catch (error) {
        const failure = new TrellisError('TRELLIS_ERR_DATABASE_UNREACHABLE', address, reasonOf(error, url));
        (failure as Error & { cause?: unknown }).cause = error;
        throw failure;
      }
    },
    ping: () => selectOne(db),
    close: () => db.destroy(),
  };
}

function embedded(dataDir: string): OpenDatabase {
  let lock: DataLock | undefined;
  let client: PGlite | undefined;
  const db = new Kysely<any>({
    dialect: new PGliteDialect({
      async open() {
        // The lock first: a second opener must never touch the folder.
        if (dataDir !== IN_MEMORY) lock = DataLock.acquire(dataDir);
        try {
          client = await openPGlite(dataDir === IN_MEMORY ? undefined : dataDir);
        } catch (error) {
          lock?.release();
          throw error;
        }
        return new PGliteConnection(client);
      },
      async close() {
        try {
          if (client && !client.closed) await client.close();
        } finally {
          lock?.release();
        }
      },
    }),
  });
  return { db, address: dataDir, connect: () => selectOne(db), ping: () => selectOne(db), close: () => db.destroy() };
}

async function selectOne(db: Kysely<any>): Promise<void> {
  await sql`select 1`.execute(db);
}

/** The first line of what went wrong, with the URL's password taken out should a driver ever echo it. */
function reasonOf(error: unknown, url: string): string {
  const text = (error instanceof Error ? error.message || (error as NodeJS.ErrnoException).code || error.name : String(error)).split('\n')[0];
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    // Not a URL: nothing to take out.
  }
  return password === '' ? text : text.split(password).join('***');
}
