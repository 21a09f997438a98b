import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readConfig } from '../config';
import type { Environment } from '../env-references';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** config.yaml `text` read with `env`. */
function load(text: string, env: Environment = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-database-config-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'config.yaml'), text);
  return readConfig(dir, env);
}
const issues = (text: string, env: Environment = {}) => load(text, env).issues.map((issue) => `${issue.line}: ${issue.message}`);

const SECTION = 'database:\n  url: ${DATABASE_URL:-}   # empty: the embedded database\n  pool: 10\n';

describe('config.yaml database:', () => {
  it('is absent unless the file has the section: no database for a project that asks for none', () => {
    const config = load('app: { title: Demo }\n');
    assert.equal(config.settings.database, undefined);
    assert.equal(Object.hasOwn(config.values, 'database'), false);
  });

  it('fills in the defaults: the embedded database in data/db, 10 connections per process', () => {
    assert.deepEqual(load('database:\n').settings.database, { url: '', pool: 10, data_dir: 'data/db' });
    assert.deepEqual(load('database: {}\n').settings.database, { url: '', pool: 10, data_dir: 'data/db' });
    assert.deepEqual(load('database: { pool: 4, data_dir: /var/lib/app/db }\n').settings.database, { url: '', pool: 4, data_dir: '/var/lib/app/db' });
  });

  it('reads ${DATABASE_URL:-}: empty when unset (embedded), the server when set', () => {
    assert.deepEqual(load(SECTION).settings.database, { url: '', pool: 10, data_dir: 'data/db' });
    assert.deepEqual(load(SECTION, { DATABASE_URL: '' }).issues, []);
    const url = 'postgres://app:s3cret@db.internal:5432/tasks';
    assert.deepEqual(load(SECTION, { DATABASE_URL: url }).settings.database, { url, pool: 10, data_dir: 'data/db' });
    assert.equal(load(SECTION, { DATABASE_URL: 'postgresql://db/tasks' }).settings.database?.url, 'postgresql://db/tasks');
  });

  it('reports a value that does not fit at its line, never echoing a URL (it may hold a password)', () => {
    assert.deepEqual(issues('database:\n  pool: 0\n'), ['2: database.pool must be a positive whole number, got 0']);
    assert.deepEqual(issues('database:\n  pool: ten\n'), ['2: database.pool must be a positive whole number, got "ten"']);
    assert.deepEqual(issues('database:\n  data_dir: ""\n'), ['2: database.data_dir must not be empty']);
    assert.deepEqual(issues('database:\n  url: 5432\n'), ['2: database.url must be a postgres:// URL or empty (the embedded database), got 5432']);
    assert.deepEqual(issues('database:\n  pool: 2\n  url: ${DATABASE_URL}\n', { DATABASE_URL: 'mysql://root:s3cret@db/tasks' }), [
      '3: database.url must be a postgres:// URL or empty (the embedded database), got a mysql: URL',
    ]);
    assert.deepEqual(issues('database:\n  url: "root:s3cret@db/tasks"\n'), [
      '2: database.url must be a postgres:// URL or empty (the embedded database), got something else',
    ]);
    assert.deepEqual(issues('database:\n  url: "postgres://app:s3cret@[db/tasks"\n'), [
      '2: database.url is not a valid URL (postgres://user:password@host:5432/name)',
    ]);
  });

  it('reports unknown keys and a section that is not a mapping', () => {
    assert.deepEqual(issues('database:\n  poool: 4\n'), ['2: unknown key database.poool (did you mean pool?)']);
    assert.deepEqual(issues('database: postgres://db/tasks\n'), ['1: database must be a mapping (url, pool, data_dir), got "postgres://db/tasks"']);
    assert.deepEqual(issues('databse:\n  url: ""\n'), ['1: unknown key databse (did you mean database?)']);
  });
});
