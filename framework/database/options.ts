import { isAbsolute, resolve } from 'node:path';
import { TrellisError } from '../framework-error';

/**
 * How `database()` (and `migrateToLatest`, `pendingMigrations`) reach the database: a PostgreSQL server through a
 * `pg` Pool when `url` is set, else the embedded PGlite in `dataDir`. config.yaml's `database:` section.
 *
 * @example
 * ```ts
 * const options: DatabaseOptions = { url: process.env.DATABASE_URL, pool: 10, migrations: 'migrations', migrate: 'check' };
 * ```
 */
export interface DatabaseOptions {
  /** `postgres://user:pass@host:5432/db`: a PostgreSQL server through a pg Pool. Empty or absent: the embedded PGlite in `dataDir`. */
  url?: string;
  /**
   * The embedded database's folder (absolute, or relative to process.cwd()); default 'data/db'. Held with a lock
   * file beside it (`<dataDir>.lock`) while open. `'memory://'`: an in-memory database, gone when it closes.
   */
  dataDir?: string;
  /** Connections per process (pg Pool `max`); default 10. Ignored by PGlite (one connection). */
  pool?: number;
  /**
   * The folder of migration files (absolute or relative to cwd): each `*.ts`/`*.js` (not `.d.ts`) exports
   * `up(db: Kysely<any>)` and optionally `down`; applied in name order (`0001_create_tasks.ts`). Absent, or a
   * folder that does not exist: no migrations.
   */
  migrations?: string;
  /** At startup: 'latest' applies pending migrations (development); 'check' refuses to start, naming the first missing migration (production); 'off'. Default 'check'. */
  migrate?: 'latest' | 'check' | 'off';
}

/** The embedded database in memory: `dataDir: 'memory://'`. */
export const IN_MEMORY = 'memory://';

/** {@link DatabaseOptions} checked, defaults applied, folders absolute. */
export interface DatabaseSettings {
  /** The server's URL, or undefined for the embedded database. */
  url: string | undefined;
  /** Absolute, or {@link IN_MEMORY}. */
  dataDir: string;
  pool: number;
  /** Absolute, or undefined for none. */
  migrations: string | undefined;
  migrate: 'latest' | 'check' | 'off';
}

const MODES = ['latest', 'check', 'off'];

/** Checks `options` (a wrong value is `TRELLIS_ERR_DATABASE_OPTION` naming it) and applies the defaults. */
export function databaseSettings(options: DatabaseOptions = {}): DatabaseSettings {
  const { url, dataDir = 'data/db', pool = 10, migrations, migrate = 'check' } = options;
  if (url !== undefined && url !== '' && (typeof url !== 'string' || !/^postgres(?:ql)?:\/\//.test(url))) {
    throw new TrellisError('TRELLIS_ERR_DATABASE_OPTION', 'url', typeof url === 'string' ? redact(url) : String(url));
  }
  if (typeof dataDir !== 'string' || dataDir === '') throw new TrellisError('TRELLIS_ERR_DATABASE_OPTION', 'dataDir', JSON.stringify(dataDir));
  if (!(Number.isSafeInteger(pool) && pool > 0)) throw new TrellisError('TRELLIS_ERR_DATABASE_OPTION', 'pool', JSON.stringify(pool));
  if (migrations !== undefined && (typeof migrations !== 'string' || migrations === '')) {
    throw new TrellisError('TRELLIS_ERR_DATABASE_OPTION', 'migrations', JSON.stringify(migrations));
  }
  if (!MODES.includes(migrate)) throw new TrellisError('TRELLIS_ERR_DATABASE_OPTION', 'migrate', JSON.stringify(migrate));
  return {
    url: url === '' ? undefined : url,
    dataDir: dataDir === IN_MEMORY ? IN_MEMORY : absolute(dataDir),
    pool,
    migrations: migrations === undefined ? undefined : absolute(migrations),
    migrate,
  };
}

/** How messages name a server: `host:port/db`, never the user or the password. */
export function serverAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}${parsed.pathname || '/'}`;
  } catch {
    return redact(url);
  }
}

/** `url` with whatever sits between `//` and `@` (user and password) taken out. */
export function redact(url: string): string {
  return url.replace(/\/\/[^/@]*@/, '//');
}

/** `path` made absolute against `process.cwd()`. */
export function absolute(path: string): string {
  return isAbsolute(path) ? path : resolve(process.cwd(), path);
}
