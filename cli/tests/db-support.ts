import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './run-support';

/** The project the database tests serve: a notes router on Kysely, migrations/0001_create_notes.ts. */
const FIXTURE = join(__dirname, 'fixtures', 'db-project');

/** A second migration, added by the tests that need a database behind the code. */
export const ADD_DONE = [
  "import type { Kysely } from 'kysely';",
  '',
  'export async function up(db: Kysely<any>): Promise<void> {',
  "  await db.schema.alterTable('notes').addColumn('done', 'boolean', (column) => column.notNull().defaultTo(false)).execute();",
  '}',
  '',
].join('\n');

/** Writes migrations/0002_add_done.ts into `dir`. */
export function addMigration(dir: string): void {
  writeFileSync(join(dir, 'migrations', '0002_add_done.ts'), ADD_DONE);
}

const folders: string[] = [];

/**
 * A copy of the db-project fixture in a fresh temporary folder (`<tmp>/app`); `modules` is put as its node_modules
 * (this checkout's by default, where kysely, pg and PGlite are installed).
 */
export function dbProject(modules: string | false = join(ROOT, 'node_modules')): string {
  const work = mkdtempSync(join(tmpdir(), 'trellis-db-test-'));
  folders.push(work);
  const dir = join(work, 'app');
  cpSync(FIXTURE, dir, { recursive: true });
  if (modules) symlinkSync(modules, join(dir, 'node_modules'));
  return dir;
}

/** Removes every folder {@link dbProject} made. */
export function removeProjects(): void {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The PostgreSQL server the tests use (CI starts it; a test that cannot reach it fails). */
export const SERVER_URL = process.env.TRELLIS_TEST_DATABASE_URL ?? 'postgres://trellis:trellis@127.0.0.1:5432/trellis';

/** A database of its own on the test server, with a random name: `url` reaches it, `drop()` removes it. */
export async function createDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const { Client } = require('pg') as typeof import('pg');
  const name = `trellis_cli_test_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new Client({ connectionString: SERVER_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new Client({ connectionString: SERVER_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
