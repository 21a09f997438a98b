import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from './support';

/** The database modules a fresh process has loaded once it assembled the project in `dir` (not started). */
function loadedAfterAssembling(dir: string): string[] {
  const script = `
    const { loadProject } = require('./runtime/load.ts');
    loadProject(${JSON.stringify(dir)});
    const files = Object.keys(require.cache).map((file) => require('node:path').relative(process.cwd(), file));
    const database = files.filter((file) => /^framework\\/database|node_modules\\/(kysely|pg|@electric-sql\\/pglite)\\//.test(file));
    console.log(JSON.stringify([...new Set(database.map((file) => file.replace(/^(node_modules\\/(@[^/]+\\/)?[^/]+)\\/.*$/, '$1').replace(/^framework\\/database.*$/, 'framework/database')))]));
  `;
  const result = spawnSync(process.execPath, ['-r', './register.js', '-e', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, DATABASE_URL: '' } });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout) as string[];
}

describe('trellis/database, loaded lazily', () => {
  it('is not loaded for a project without a database: section (it needs no kysely, pg or PGlite installed)', () => {
    assert.deepEqual(loadedAfterAssembling(join(ROOT, 'runtime', 'tests', 'fixtures', 'healthy')), []);
  });

  it('is loaded with kysely for a project with one; the driver only when the database opens', () => {
    assert.deepEqual(loadedAfterAssembling(join(ROOT, 'cli', 'tests', 'fixtures', 'db-project')).sort(), ['framework/database', 'node_modules/kysely']);
  });
});
