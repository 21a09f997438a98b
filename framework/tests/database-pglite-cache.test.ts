import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { migrateToLatest, pendingMigrations } from '../database';
import { MIGRATIONS } from './support/database';

const GZIP = Buffer.from([0x1f, 0x8b]);

describe('the dump a new embedded database is loaded from', () => {
  const folder = mkdtempSync(join(tmpdir(), 'trellis-pglite-cache-'));
  const cache = join(folder, 'cache');
  const saved = process.env.TRELLIS_CACHE_DIR;
  process.env.TRELLIS_CACHE_DIR = cache;
  after(() => {
    if (saved === undefined) delete process.env.TRELLIS_CACHE_DIR;
    else process.env.TRELLIS_CACHE_DIR = saved;
    rmSync(folder, { recursive: true, force: true });
  });

  it('is made by the first new database, replaces an unreadable one, and gives the next new folder a working database', async () => {
    const { version } = JSON.parse(readFileSync(join(require.resolve('@electric-sql/pglite'), '..', '..', 'package.json'), 'utf8')) as { version: string };
    const dump = join(cache, `pglite-${version}.tar.gz`);
    mkdirSync(cache);
    writeFileSync(dump, 'not a dump');

    assert.deepEqual(await migrateToLatest({ dataDir: join(folder, 'first'), migrations: MIGRATIONS }), { applied: ['0001_create_tasks', '0002_add_done'] });
    assert.deepEqual(readFileSync(dump).subarray(0, 2), GZIP);
    assert.deepEqual(readdirSync(cache), [`pglite-${version}.tar.gz`]);

    // Loaded from the dump: an empty cluster, the migrations of the first folder absent.
    assert.deepEqual(await pendingMigrations({ dataDir: join(folder, 'second'), migrations: MIGRATIONS }), ['0001_create_tasks', '0002_add_done']);
    assert.deepEqual(await migrateToLatest({ dataDir: join(folder, 'second'), migrations: MIGRATIONS }), { applied: ['0001_create_tasks', '0002_add_done'] });
    assert.deepEqual(await pendingMigrations({ dataDir: join(folder, 'second'), migrations: MIGRATIONS }), []);
  });
});
