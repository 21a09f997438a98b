import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = join(__dirname, '..', '..');

describe('Express, loaded on demand', () => {
  it('is not loaded by an app with docs, static files and a favicon until a request no route matches', () => {
    const app = join(__dirname, 'fixtures', 'lazy-express', 'app.ts');
    const out = execFileSync(process.execPath, ['-r', './register.js', app], { cwd: root, encoding: 'utf8' });
    assert.deepEqual(JSON.parse(out), [
      ['started', false],
      ['route 200', false],
      ['docs 200', true],
      ['favicon 200', true],
    ]);
  });
});
