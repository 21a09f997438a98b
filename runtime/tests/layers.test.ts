import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from './support';

/** Every module a shipped source file of `folder` imports or requires (tests left out), as written. */
function importsOf(folder: string): Array<{ file: string; target: string }> {
  return readdirSync(join(ROOT, folder), { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.ts') && !file.split('/').includes('tests'))
    .flatMap((file) => {
      const text = readFileSync(join(ROOT, folder, file), 'utf8');
      return [...text.matchAll(/(?:from\s+|import\(|require\()\s*'([^']+)'/g)].map(([, target]) => ({ file: `${folder}/${file}`, target }));
    });
}

describe('the layers: cli -> runtime -> framework', () => {
  it('runtime never imports the CLI, the generators or the blueprints', () => {
    const runtime = importsOf('runtime');
    assert.ok(runtime.some(({ target }) => target.startsWith('../framework/')), 'the scan finds the framework imports');
    assert.deepEqual(runtime.filter(({ target }) => /^(\.\.\/)+(cli|generators|blueprints)\b/.test(target)), []);
  });

  it('the CLI and the runtime use the framework only through its public entry points', () => {
    const PUBLIC = ['index', 'inspect', 'param', 'testing'];
    const imports = [...importsOf('cli'), ...importsOf('runtime')].filter(({ target }) => /^(\.\.\/)+framework\b/.test(target));
    assert.ok(imports.some(({ target }) => target.endsWith('/framework/inspect')), 'the scan finds the inspection imports');
    assert.deepEqual(imports.filter(({ target }) => !PUBLIC.some((entry) => target.endsWith(`/framework/${entry}`))), []);
  });

  it('the framework never imports the runtime', () => {
    assert.deepEqual(importsOf('framework').filter(({ target }) => /^(\.\.\/)+runtime\b/.test(target)), []);
  });
});
