import Module, { createRequire } from 'node:module';
import { join } from 'node:path';

/** Module ids (`class-validator`, `trellis/param`) and what loads each from a bundle. */
export type SharedModules = Readonly<Record<string, () => unknown>>;

/**
 * Puts the modules a bundle carries in Node's module cache where the build's own files find them: each id is
 * resolved from `dir` as the compiled files resolve it, and that file's entry gives what the bundle exports
 * (loaded on first use). The build's `require('class-validator')` then gets the bundle's copy, whose metadata
 * the framework reads, rather than a second copy from node_modules. An id that does not resolve from `dir`, or
 * whose file is already loaded, is left to Node.
 *
 * @example
 * ```ts
 * shareModules(__dirname, { 'class-validator': () => require('class-validator') });
 * ```
 */
export function shareModules(dir: string, shared: SharedModules): void {
  // Resolved from a file of the build: `require.resolve` with `paths` would find trellis itself for `trellis`.
  const resolve = createRequire(join(dir, 'main.js')).resolve;
  for (const [id, load] of Object.entries(shared)) {
    let file: string;
    try {
      file = resolve(id);
    } catch {
      continue;
    }
    if (require.cache[file]) continue;
    const entry = new Module(file);
    entry.filename = file;
    entry.loaded = true;
    let exports: unknown;
    let loaded = false;
    Object.defineProperty(entry, 'exports', {
      configurable: true,
      enumerable: true,
      get: () => {
        if (!loaded) [exports, loaded] = [load(), true];
        return exports;
      },
      set: (value: unknown) => void ([exports, loaded] = [value, true]),
    });
    require.cache[file] = entry;
  }
}
