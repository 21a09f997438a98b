import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { shareModules } from '../shared-modules';

const dir = mkdtempSync(join(tmpdir(), 'trellis-shared-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A package `name` in `<dir>/node_modules` whose index records that its own code ran. */
function installPackage(name: string): string {
  const folder = join(dir, 'node_modules', name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name, main: 'index.js' }));
  writeFileSync(join(folder, 'index.js'), "globalThis.sharedTestRan = (globalThis.sharedTestRan ?? 0) + 1; exports.from = 'node_modules';\n");
  return join(folder, 'index.js');
}

describe('shareModules', () => {
  it("gives the build's files the bundle's copy, loaded on their first require, and leaves other ids to Node", () => {
    const index = installPackage('shared-lib');
    const build = join(dir, 'build');
    mkdirSync(build);
    writeFileSync(join(build, 'user.js'), "module.exports = require('shared-lib');\n");
    const bundled = { from: 'bundle' };
    let loads = 0;
    shareModules(build, {
      'shared-lib': () => (loads++, bundled),
      'not-installed': () => assert.fail('an id that does not resolve is not registered'),
    });
    try {
      assert.equal(loads, 0);
      assert.equal(require(join(build, 'user.js')), bundled);
      assert.equal(require(join(build, 'user.js')), bundled);
      assert.equal(loads, 1);
      assert.equal((globalThis as { sharedTestRan?: number }).sharedTestRan, undefined, "the package's own file never ran");
      assert.equal(require.cache[index]?.exports, bundled);
    } finally {
      delete require.cache[index];
      delete require.cache[join(build, 'user.js')];
    }
  });

  it('leaves a module already loaded alone', () => {
    const index = installPackage('loaded-lib');
    const build = join(dir, 'build2');
    mkdirSync(build);
    const real = require(index) as { from: string };
    try {
      shareModules(build, { 'loaded-lib': () => ({ from: 'bundle' }) });
      assert.equal(require.cache[index]?.exports, real);
      assert.equal(real.from, 'node_modules');
    } finally {
      delete require.cache[index];
      delete (globalThis as { sharedTestRan?: number }).sharedTestRan;
    }
  });
});
