import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { watchTree } from '../project/watch-tree';

const root = mkdtempSync(join(tmpdir(), 'trellis-watch-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A watch of a fresh folder holding `routers/a.ts` and `node_modules/x.js`, and a way to await the next change of a path. */
function watched(name: string) {
  const dir = join(root, name);
  mkdirSync(join(dir, 'routers'), { recursive: true });
  mkdirSync(join(dir, 'node_modules'));
  writeFileSync(join(dir, 'routers', 'a.ts'), 'one');
  const seen: string[] = [];
  const all: string[] = [];
  let wake = () => {};
  const watcher = watchTree(dir, (path) => path.startsWith('node_modules'), (path) => {
    seen.push(path);
    all.push(path);
    wake();
  });
  /** Resolves once `path` has changed since the last call (rejects after 5 s). */
  const change = async (path: string) => {
    const deadline = Date.now() + 5_000;
    while (!seen.includes(path)) {
      if (Date.now() > deadline) throw new Error(`no change of ${path}; seen: ${seen.join(', ')}`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 100);
      });
    }
    seen.length = 0;
  };
  return { dir, all, change, close: () => watcher.close() };
}

describe('watchTree', () => {
  it('sees in-place writes after rename-style saves of the same file', async () => {
    const { dir, change, close } = watched('renames');
    const file = join(dir, 'routers', 'a.ts');
    try {
      for (const text of ['two', 'three']) {
        writeFileSync(join(dir, 'routers', 'sedX1'), text);
        renameSync(join(dir, 'routers', 'sedX1'), file);
        await change('routers/a.ts');
      }
      writeFileSync(file, 'four');
      await change('routers/a.ts');
    } finally {
      close();
    }
  });

  it('watches new subfolders, sees deleted files and folders, and ignores what it is told to', async () => {
    const { dir, all, change, close } = watched('folders');
    try {
      mkdirSync(join(dir, 'routers', 'nested'));
      await change('routers/nested');
      writeFileSync(join(dir, 'routers', 'nested', 'b.ts'), 'b');
      await change('routers/nested/b.ts');
      writeFileSync(join(dir, 'routers', 'nested', 'b.ts'), 'b2');
      await change('routers/nested/b.ts');
      rmSync(join(dir, 'routers', 'a.ts'));
      await change('routers/a.ts');
      rmSync(join(dir, 'routers', 'nested'), { recursive: true });
      await change('routers/nested');
      writeFileSync(join(dir, 'node_modules', 'x.js'), 'x');
      writeFileSync(join(dir, 'top.ts'), 'top');
      await change('top.ts');
      assert.deepEqual(all.filter((path) => path.startsWith('node_modules')), []);
    } finally {
      close();
    }
  });
});
