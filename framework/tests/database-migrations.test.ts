import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BaseRouter } from '../index';
import { database, migrateToLatest, pendingMigrations } from '../database';
import { TrellisError } from '../framework-error';
import { TestClient } from '../testing';
import { silentLogger } from './fixtures/captured-log';
import { MIGRATIONS, TARGETS, type TestTarget } from './support/database';

const CREATE_TASKS = `import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('tasks').addColumn('id', 'serial', (column) => column.primaryKey()).addColumn('title', 'text').execute();
}
`;
const BROKEN = join(__dirname, 'fixtures', 'database', 'broken-migrations');

/** The coded error `work` fails with: itself, or the cause of a failed start. */
async function failure(work: Promise<unknown>): Promise<TrellisError> {
  const error = await work.then(() => assert.fail('it succeeded'), (thrown: unknown) => thrown);
  const coded = error instanceof TrellisError && error.code === 'TRELLIS_ERR_STARTUP_FAILED' ? (error as Error & { cause?: unknown }).cause : error;
  assert.ok(coded instanceof TrellisError, String(error));
  return coded;
}

const start = (options: object) => new TestClient(new BaseRouter({ logger: silentLogger(), sourceTypes: false }).register(database(options)));

for (const [kind, make] of TARGETS) {
  describe(`migrations on ${kind}`, () => {
    let target: TestTarget;
    const folder = mkdtempSync(join(tmpdir(), 'trellis-migrations-'));
    before(async () => (target = await make()));
    after(async () => {
      await target.remove();
      rmSync(folder, { recursive: true, force: true });
    });

    it('lists what is pending without writing, applies it in name order, then has nothing left', async () => {
      // A folder outside the project has no node_modules: these migrations import types only.
      writeFileSync(join(folder, '0001_create_tasks.ts'), CREATE_TASKS);
      writeFileSync(join(folder, 'notes.md'), 'not a migration');
      writeFileSync(join(folder, '0001_create_tasks.d.ts'), 'export {};');
      const options = { ...target.options, migrations: folder };
      assert.deepEqual(await pendingMigrations(options), ['0001_create_tasks']);
      assert.deepEqual(await pendingMigrations(options), ['0001_create_tasks']);
      assert.deepEqual(await migrateToLatest(options), { applied: ['0001_create_tasks'] });
      assert.deepEqual(await pendingMigrations(options), []);
      assert.deepEqual(await migrateToLatest(options), { applied: [] });
    });

    it("refuses a start in 'check' mode naming the first pending migration; 'off' starts anyway; 'latest' applies it", async () => {
      copyFileSync(join(MIGRATIONS, '0002_add_done.ts'), join(folder, '0002_add_done.ts'));
      writeFileSync(join(folder, '0003_add_notes.js'), "exports.up = (db) => db.schema.createTable('notes').addColumn('id', 'serial').execute();\n");
      const options = { ...target.options, migrations: folder };
      const pending = await failure(start({ ...options, migrate: 'check' }).start());
      assert.equal(pending.code, 'TRELLIS_ERR_MIGRATION_PENDING');
      assert.equal(
        pending.message,
        'The database lacks migration 0002_add_done (2 pending): apply them before starting, with `trellis db migrate` (npm run db:migrate) or, in a production install, `node dist/main.js --migrate`',
      );
      assert.deepEqual(await pendingMigrations(options), ['0002_add_done', '0003_add_notes']);

      const off = start({ ...options, migrate: 'off' });
      await off.start();
      assert.equal(await off.close(), true);

      const latest = start({ ...options, migrate: 'latest' });
      await latest.start();
      assert.equal(await latest.close(), true);
      assert.deepEqual(await pendingMigrations(options), []);
      const checked = start({ ...options, migrate: 'check' });
      await checked.start();
      assert.equal(await checked.close(), true);
    });
  });

  describe(`a failing migration on ${kind}`, () => {
    let target: TestTarget;
    before(async () => (target = await make()));
    after(() => target.remove());

    it('stops the start naming it, and applies none of the batch (one transaction)', async () => {
      const options = { ...target.options, migrations: BROKEN };
      const failed = await failure(start({ ...options, migrate: 'latest' }).start());
      assert.equal(failed.code, 'TRELLIS_ERR_MIGRATION_FAILED');
      assert.equal(failed.details.migration, '0002_broken');
      assert.match(failed.message, /^Migration 0002_broken failed: relation "no_such_table" does not exist$/);
      assert.deepEqual(await pendingMigrations(options), ['0001_create_tasks', '0002_broken', '0003_never']);
      const again = await failure(migrateToLatest(options));
      assert.equal(again.details.migration, '0002_broken');
    });
  });
}

describe('database options', () => {
  it('refuses a value that does not fit, naming the option and never a password', () => {
    const refused = (options: object, option: string, value: string) =>
      assert.throws(() => database(options as never), (error: TrellisError) => {
        assert.equal(error.code, 'TRELLIS_ERR_DATABASE_OPTION');
        assert.deepEqual(error.details, { option, value });
        return true;
      });
    refused({ url: 'mysql://root:hunter2@db/app' }, 'url', 'mysql://db/app');
    refused({ pool: 0 }, 'pool', '0');
    refused({ pool: 2.5 }, 'pool', '2.5');
    refused({ migrate: 'yes' }, 'migrate', '"yes"');
    refused({ dataDir: '' }, 'dataDir', '""');
    refused({ migrations: '' }, 'migrations', '""');
  });
});
