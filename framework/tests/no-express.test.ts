import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = join(__dirname, '..', '..');

const app = join(__dirname, 'fixtures', 'no-express', 'app.ts');
const run = (...args: string[]) => JSON.parse(execFileSync(process.execPath, ['-r', './register.js', app, ...args], { cwd: root, encoding: 'utf8' }));

describe('Express on the serving path', () => {
  it('is never loaded to serve routes, docs pages and assets, the favicon, static files or a 404', () => {
    assert.deepEqual(run(), [
      ['started', false],
      ['route 200', false],
      ['docs 200', false],
      ['docs asset 200', false],
      ['favicon 200', false],
      ['static 200', false],
      ['static missing 404', false],
      ['unmatched 404', false],
    ]);
  });

  it('is loaded by the first request through an Express-style middleware, for its request and response methods', () => {
    assert.deepEqual(run('--express-middleware'), [
      ['started', false],
      ['route 200', true],
      ['docs 200', true],
      ['docs asset 200', true],
      ['favicon 200', true],
      ['static 200', true],
      ['static missing 404', true],
      ['unmatched 404', true],
    ]);
  });
});
