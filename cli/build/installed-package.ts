import { realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The `package.json` of package `name` as code in `from` finds it, by Node's node_modules lookup up the tree;
 * undefined when it is not installed. Not `require.resolve`, which would find the CLI's own trellis (itself,
 * or register.js's alias in a checkout), and which a package's `exports` may refuse.
 */
export function installedManifest(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', name, 'package.json');
    // Not a throw per folder without it: `trellis run` looks up some 70 packages as it starts.
    if (statSync(manifest, { throwIfNoEntry: false })) return manifest;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The folder of package `name` as code in `from` finds it ({@link installedManifest}), its real path (pnpm links it). */
export function installedPackage(from: string, name: string): string | undefined {
  const manifest = installedManifest(from, name);
  return manifest && dirname(realpathSync(manifest));
}
