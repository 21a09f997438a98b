import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

/** The PostgreSQL server the database tests use: they fail, never skip, when it does not answer. */
export const SERVER_URL = process.env.TRELLIS_TEST_DATABASE_URL ?? 'postgres://trellis:trellis@127.0.0.1:5432/trellis';

/** The fixture migrations: `tasks` (id, title unique, created_at), then its `done` column. */
export const MIGRATIONS = join(__dirname, '..', 'fixtures', 'database', 'migrations');

/** Where a test's database lives, and how to remove it. */
export interface TestTarget {
  kind: 'pglite' | 'postgres';
  /** `url` for PostgreSQL, `dataDir` for PGlite. */
  options: { url?: string; dataDir?: string };
  remove(): Promise<void>;
}

/** A database of its own on the server, `trellis_t_<random>`, dropped by `remove()`. */
export async function serverDatabase(): Promise<TestTarget> {
  const name = `trellis_t_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`create database ${name}`));
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return {
    kind: 'postgres',
    options: { url: url.toString() },
    remove: () => admin((client) => client.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}

/** An embedded database in a fresh temporary folder (`<tmp>/db`), removed with its lock by `remove()`. */
export async function embeddedDatabase(): Promise<TestTarget> {
  const folder = mkdtempSync(join(tmpdir(), 'trellis-db-'));
  return { kind: 'pglite', options: { dataDir: join(folder, 'db') }, remove: async () => rmSync(folder, { recursive: true, force: true }) };
}

/** Both kinds: each database test runs on the embedded PGlite and on the server. */
export const TARGETS = [
  ['PGlite', embeddedDatabase],
  ['PostgreSQL', serverDatabase],
] as const;

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
