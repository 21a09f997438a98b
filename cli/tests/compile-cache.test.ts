import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ROOT } from './run-support';

interface Cache {
  readonly dir: string | null;
  key(...inputs: string[]): string;
  get(key: string): string | undefined;
  set(key: string, code: string): void;
}
const { CompileCache } = require('../loader/compile-cache') as {
  CompileCache: new (candidates: string[], options?: { maxEntries?: number }) => Cache;
};

const temporary: string[] = [];
after(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-cache-test-'));
  temporary.push(dir);
  return dir;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Runs `node -r register.js <file>` with the cache in `cacheDir`; returns stdout (it must succeed). */
function runTs(file: string, cacheDir: string, env: NodeJS.ProcessEnv = {}): string {
  const result = spawnSync(process.execPath, ['-r', join(ROOT, 'register.js'), file], {
    env: { ...process.env, TRELLIS_CACHE_DIR: cacheDir, ...env },
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

/** A folder with one TypeScript file printing `value`; returns the file. */
function script(value: string): string {
  const file = join(tempDir(), 'main.ts');
  writeFileSync(file, `const value: string = ${JSON.stringify(value)};\nconsole.log(value);\n`);
  return file;
}

const entries = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.js'));

describe('the compile cache of register.js', () => {
  it('compiles a file once: the next process runs the stored output (checked against its header)', () => {
    const cache = tempDir();
    const file = script('compiled');
    assert.equal(runTs(file, cache), 'compiled\n');
    const [entry] = entries(cache);
    assert.equal(entries(cache).length, 1);
    const stored = readFileSync(join(cache, entry), 'utf8');
    const [header, ...code] = stored.split('\n');
    assert.equal(header, `//trellis-compile-cache ${entry.slice(0, -3)} ${sha256(code.join('\n'))}`);

    // An entry whose header checks out is used as it is: proof that the second process did not compile.
    const replaced = 'console.log("from the cache");\n';
    writeFileSync(join(cache, entry), `//trellis-compile-cache ${entry.slice(0, -3)} ${sha256(replaced)}\n${replaced}`);
    assert.equal(runTs(file, cache), 'from the cache\n');
  });

  it('ignores and rewrites an entry that was altered or cut short', () => {
    const cache = tempDir();
    const file = script('original');
    runTs(file, cache);
    const [entry] = entries(cache);
    const good = readFileSync(join(cache, entry), 'utf8');
    writeFileSync(join(cache, entry), good.replace('"original"', '"tampered"'));
    assert.equal(runTs(file, cache), 'original\n');
    assert.equal(readFileSync(join(cache, entry), 'utf8'), good, 'rewritten');
    writeFileSync(join(cache, entry), good.slice(0, good.length - 20));
    assert.equal(runTs(file, cache), 'original\n');
    writeFileSync(join(cache, entry), 'console.log("no header");\n');
    assert.equal(runTs(file, cache), 'original\n');
  });

  it('compiles a changed file again (the key is the content)', () => {
    const cache = tempDir();
    const file = script('first');
    assert.equal(runTs(file, cache), 'first\n');
    writeFileSync(file, 'console.log("second" as string);\n');
    assert.equal(runTs(file, cache), 'second\n');
    assert.equal(entries(cache).length, 2);
  });

  it('is off with TRELLIS_CACHE=off', () => {
    const cache = tempDir();
    assert.equal(runTs(script('uncached'), cache, { TRELLIS_CACHE: 'off' }), 'uncached\n');
    assert.deepEqual(readdirSync(cache), []);
  });

  it('reads nothing from, and writes nothing to, a folder others can write or a symbolic link', () => {
    const open = join(tempDir(), 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const file = script('still runs');
    assert.equal(runTs(file, open), 'still runs\n');
    assert.deepEqual(readdirSync(open), []);

    const target = tempDir();
    const link = join(tempDir(), 'link');
    symlinkSync(target, link);
    assert.equal(runTs(file, link), 'still runs\n');
    assert.deepEqual(readdirSync(target), []);
  });

  it('creates its folder private, and falls back to the next folder when one cannot be used (a read-only install)', () => {
    const base = tempDir();
    const blocked = join(base, 'a-file', 'cache'); // under a file: cannot be created
    writeFileSync(join(base, 'a-file'), '');
    const fallback = join(base, 'fallback');
    const cache = new CompileCache([blocked, fallback]);
    assert.equal(cache.dir, fallback);
    const key = cache.key('a', 'b');
    cache.set(key, 'module.exports = 1;\n');
    assert.equal(cache.get(key), 'module.exports = 1;\n');
    assert.equal(cache.get(cache.key('a', 'c')), undefined);
    const mode = spawnSync('stat', ['-c', '%a', fallback], { encoding: 'utf8' }).stdout.trim();
    assert.equal(mode, '700');
    assert.equal(new CompileCache([blocked]).dir, null, 'no usable folder: no cache');
  });

  it('removes the oldest half once there are more entries than it keeps', () => {
    const dir = tempDir();
    const cache = new CompileCache([dir], { maxEntries: 4 });
    const old = Date.now() / 1000 - 1000;
    for (let i = 0; i < 6; i++) {
      writeFileSync(join(dir, `old-${i}.js`), '');
      utimesSync(join(dir, `old-${i}.js`), old + i, old + i);
    }
    cache.set(cache.key('new'), 'x');
    assert.deepEqual(readdirSync(dir).sort(), [`${cache.key('new')}.js`, 'old-4.js', 'old-5.js']);
  });
});
