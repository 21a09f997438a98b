import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { packageRoot } from '../../generators/paths';
import { installedManifest } from '../build/installed-package';

/** The trellis package's runtime bundle, in its dist/: written by scripts/build.js, loaded by `trellis run`. */
export const RUNTIME_BUNDLE = 'trellis.runtime.js';
/** What the runtime bundle carries: {@link RuntimeBundleMeta}. */
export const RUNTIME_BUNDLE_META = 'trellis.runtime.json';

export interface RuntimeBundleMeta {
  /** A hash of the bundle's code: part of its code cache's name. */
  hash: string;
  /** The ids the bundle shares with the project (cli/loader/aliases.js). */
  shared: string[];
  /** Each package bundled, by name, with the versions bundled. */
  packages: Record<string, string[]>;
}

interface BundleExports {
  shared: Record<string, () => unknown>;
  shareModules: (dir: string, shared: Record<string, () => unknown>) => void;
  writeCacheEntry: (file: string, data: Uint8Array) => void;
}

/**
 * `trellis run` from the installed CLI loads trellis's runtime, and the modules a project shares with it,
 * from one file (the trellis package's dist/trellis.runtime.js) instead of some 450 modules looked up, read and compiled one by
 * one: compiled from V8's code cache when there is one for this Node, else compiled as usual, and the cache is
 * written (in trellis's cache folder, as the compiled TypeScript) when the process exits. Each shared module is
 * put in Node's module cache under the file its id resolves to, so the CLI's `import('trellis/runtime')` and the
 * project's `import 'trellis'` get the bundle's copies. `root` is the trellis package the CLI resolves (the
 * project's own: trellis-cli lists it as a peer dependency).
 *
 * Returns false, and everything loads from node_modules as without it, in a checkout (trellis's TypeScript
 * sources run), with `TRELLIS_RUNTIME_BUNDLE=off`, when a package in the bundle is installed in a version the bundle
 * does not carry (an upgrade or an override wins), or when a shared module is loaded already.
 */
export function useRuntimeBundle(root = trellisRoot()): boolean {
  if (process.env.TRELLIS_RUNTIME_BUNDLE === 'off' || !root || existsSync(join(root, 'framework', 'index.ts'))) return false;
  const dist = join(root, 'dist');
  const file = join(dist, RUNTIME_BUNDLE);
  let meta: RuntimeBundleMeta;
  let code: string;
  try {
    meta = JSON.parse(readFileSync(join(dist, RUNTIME_BUNDLE_META), 'utf8')) as RuntimeBundleMeta;
    if (!bundledVersionsInstalled(root, meta.packages) || meta.shared.some(loadedFrom(root))) return false;
    code = readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  const cacheFile = codeCacheFile(meta.hash);
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile) cachedData = readFileSync(cacheFile);
  } catch {
    // none yet: compiled as usual, cached when this process exits
  }
  // Wrapped on the bundle's first line, so its line numbers are the file's; its `require` is trellis's.
  const script = new Script(`(function (exports, require, module, __filename, __dirname, __trellis) {${code}\n})`, { filename: file, cachedData });
  const loaded = { exports: {} as BundleExports };
  (script.runInThisContext() as Function)(loaded.exports, createRequire(join(root, 'package.json')), loaded, file, dist, root);
  loaded.exports.shareModules(root, loaded.exports.shared);
  if (cacheFile && (!cachedData || script.cachedDataRejected)) process.once('exit', () => loaded.exports.writeCacheEntry(cacheFile, script.createCachedData()));
  return true;
}

function trellisRoot(): string | undefined {
  try {
    return dirname(require.resolve('trellis/package.json'));
  } catch {
    return undefined; // not installed: the runtime's import says so
  }
}

// Whether the module an id names is loaded already (this process would then hold two copies of it).
function loadedFrom(root: string): (id: string) => boolean {
  const resolve = createRequire(join(root, 'main.js')).resolve;
  return (id) => require.cache[resolve(id)] !== undefined;
}

// Every bundled package trellis finds installed is in a version the bundle has (one it does not find, an
// optional one, is the bundle's alone).
function bundledVersionsInstalled(root: string, packages: Record<string, string[]>): boolean {
  for (const [name, versions] of Object.entries(packages)) {
    const manifest = installedManifest(root, name);
    if (!manifest) continue;
    try {
      if (!versions.includes((JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version ?? '')) return false;
    } catch {
      return false;
    }
  }
  return true;
}

// In the folder the TypeScript cache uses (the CLI's cli/loader/compile-cache.js: private to this user), named
// by Node's version and the bundle's hash; undefined when caching is off or no folder is usable. Not the
// framework's `cacheDir`: that one is in the bundle, and this cache is read before the bundle is compiled.
function codeCacheFile(hash: string): string | undefined {
  if (process.env.TRELLIS_CACHE === 'off') return undefined;
  const { CompileCache, cacheDirs } = require(join(packageRoot, 'cli', 'loader', 'compile-cache.js')) as {
    CompileCache: new (candidates: string[]) => { dir: string | null };
    cacheDirs: (packageRoot: string) => string[];
  };
  const dir = new CompileCache(cacheDirs(packageRoot)).dir;
  return dir ? join(dir, `runtime-${process.version}-${process.arch}-${hash}.v8cache`) : undefined;
}
