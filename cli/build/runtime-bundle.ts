import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as Esbuild from 'esbuild';
import { packageRoot } from '../../generators/paths';
import { RUNTIME_BUNDLE, RUNTIME_BUNDLE_META, type RuntimeBundleMeta } from '../project/runtime-bundle';
import { bundleTrellis } from './bundle';

/**
 * Writes the trellis package's runtime bundle, which `trellis run` loads (`useRuntimeBundle`), into `<root>/dist`:
 * trellis's runtime and every id a project shares with it (cli/loader/aliases.js), with what it carries in
 * dist/trellis.runtime.json. Run by scripts/build.js (`npm pack`) once dist/ is compiled.
 *
 * @example
 * ```ts
 * await writeRuntimeBundle(require('esbuild'), packageRoot);
 * ```
 */
export async function writeRuntimeBundle(esbuild: typeof Esbuild, root: string): Promise<RuntimeBundleMeta> {
  const { sharedAliases } = require(join(packageRoot, 'cli', 'loader', 'aliases.js')) as { sharedAliases: (code: string) => Map<string, string> };
  const aliases = [...sharedAliases('./dist')].filter(([id]) => !id.endsWith('.json'));
  const entry = [
    "exports.shareModules = require('./dist/runtime/shared-modules').shareModules;",
    "exports.writeCacheEntry = require('./dist/framework/source/types/cache').writeCacheEntry;",
    'exports.shared = {',
    ...aliases.map(([id, target]) => `  ${JSON.stringify(id)}: () => require(${JSON.stringify(target)}),`),
    '};',
  ].join('\n');
  const { code, packages } = await bundleTrellis(esbuild, { entry, resolveDir: root, trellisRoot: root });
  const meta: RuntimeBundleMeta = { hash: createHash('sha256').update(code).digest('hex').slice(0, 16), shared: aliases.map(([id]) => id), packages };
  writeFileSync(join(root, 'dist', RUNTIME_BUNDLE), code);
  writeFileSync(join(root, 'dist', RUNTIME_BUNDLE_META), `${JSON.stringify(meta, null, 2)}\n`);
  return meta;
}
