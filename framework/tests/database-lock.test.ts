import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { Kysely, sql } from 'kysely';
import { BaseRouter, Injectable } from '../index';
import { database, migrateToLatest, pendingMigrations } from '../database';
import { TrellisError } from '../framework-error';
import { TestClient } from '../testing';
import { silentLogger } from './fixtures/captured-log';
import { MIGRATIONS } from './support/database';

const ROOT = join(__dirname, '..', '..');
const HOLDER = join(__dirname, 'fixtures', 'database', 'hold-database.ts');

/** A process holding the embedded database of `dataDir`, answering `rows` and `close` on stdin. */
class Holder {
  readonly lines: AsyncIterator<string>;
  constructor(readonly child: ChildProcessWithoutNullStreams) {
    this.lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  }

  static async start(dataDir: string): Promise<Holder & { pid: number }> {
    const child = spawn(process.execPath, ['--require', './register.js', HOLDER, dataDir], { cwd: ROOT });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const holder = new Holder(child);
    const first = await holder.next();
    assert.match(first, /^ready \d+$/, stderr);
    return Object.assign(holder, { pid: Number(first.split(' ')[1]) });
  }

  async next(): Promise<string> {
    const { value, done } = await this.lines.next();
    return done ? '(exited)' : value;
  }

  async ask(line: string): Promise<string> {
    this.child.stdin.write(`${line}\n`);
    return this.next();
  }
}

/** Every file of `folder` with its size and content hash: equal before and after means nothing touched it. */
function snapshot(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(folder, { recursive: true }) as string[]) {
    const file = join(folder, name);
    if (statSync(file).isFile()) files[name] = createHash('sha256').update(readFileSync(file)).digest('hex');
  }
  return files;
}

@Injectable()
class Notes {
  static db: Kysely<any>;
  constructor(private readonly db: Kysely<any>) {}
  onStartup(): void {
    Notes.db = this.db;
  }
}

/** Asserts `work` fails with TRELLIS_ERR_DATABASE_LOCKED naming `folder` and `pid` (itself, or as the cause of the failed start). */
async function assertLocked(work: Promise<unknown>, folder: string, pid: number): Promise<void> {
  const error = await work.then(() => assert.fail('it opened the database'), (failure: unknown) => failure);
  const cause = error instanceof TrellisError && error.code === 'TRELLIS_ERR_STARTUP_FAILED' ? (error as Error & { cause?: unknown }).cause : error;
  assert.ok(cause instanceof TrellisError, String(error));
  assert.equal(cause.code, 'TRELLIS_ERR_DATABASE_LOCKED');
  assert.deepEqual(cause.details, { folder, pid, lockFile: `${folder}.lock` });
  assert.equal(
    cause.message,
    `The embedded database ${folder} is open in another process (pid ${pid}, lock file ${folder}.lock): one process at a time opens it; set DATABASE_URL to a PostgreSQL server to run several processes`,
  );
}

describe('the embedded database\'s lock', () => {
  const folder = mkdtempSync(join(tmpdir(), 'trellis-lock-'));
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('refuses a second process, which never touches the folder; the first keeps its rows, and closing releases it', async () => {
    const dataDir = join(folder, 'db');
    const holder = await Holder.start(dataDir);
    after(() => holder.child.kill());
    assert.equal(readFileSync(`${dataDir}.lock`, 'utf8'), `${holder.pid}\n`);
    const before = snapshot(dataDir);

    const app = () => new BaseRouter({ logger: silentLogger(), sourceTypes: false }).register(database({ dataDir, migrate: 'off' })).provide(Notes);
    await assertLocked(new TestClient(app()).start(), dataDir, holder.pid);
    await assertLocked(migrateToLatest({ dataDir, migrations: MIGRATIONS }), dataDir, holder.pid);
    await assertLocked(pendingMigrations({ dataDir, migrations: MIGRATIONS }), dataDir, holder.pid);

    assert.deepEqual(snapshot(dataDir), before);
    assert.equal(readFileSync(`${dataDir}.lock`, 'utf8'), `${holder.pid}\n`);
    assert.equal(await holder.ask('rows'), 'rows [{"text":"kept"}]');
    assert.equal(await holder.ask('close'), 'closed');
    assert.equal(existsSync(`${dataDir}.lock`), false);

    const client = new TestClient(app());
    await client.start();
    assert.equal(readFileSync(`${dataDir}.lock`, 'utf8'), `${process.pid}\n`);
    assert.deepEqual((await sql`select text from notes`.execute(Notes.db)).rows, [{ text: 'kept' }]);
    assert.equal(await client.close(), true);
    assert.equal(existsSync(`${dataDir}.lock`), false);
  });

  it('takes over a lock whose process has died, and refuses one in this process while it is open', async () => {
    const dataDir = join(folder, 'stale');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(`${dataDir}.lock`, `${dead.stdout}\n`);

    const app = () => new BaseRouter({ logger: silentLogger(), sourceTypes: false }).register(database({ dataDir, migrate: 'off' }));
    const client = new TestClient(app());
    await client.start();
    assert.equal(readFileSync(`${dataDir}.lock`, 'utf8'), `${process.pid}\n`);
    await assertLocked(new TestClient(app()).start(), dataDir, process.pid);
    assert.equal(await client.close(), true);
    assert.equal(existsSync(`${dataDir}.lock`), false);
  });
});
