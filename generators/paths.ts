import { basename, dirname, join, resolve } from 'node:path';

/**
 * The trellis package's folder: the repository root when the CLI runs from its TypeScript sources, the
 * installed package's folder when it runs compiled from `dist/`.
 */
export const packageRoot = basename(resolve(__dirname, '..')) === 'dist' ? resolve(__dirname, '..', '..') : resolve(__dirname, '..');

/** Where the blueprints (plain project files) live. */
export const blueprintsDir = join(packageRoot, 'blueprints');

/** The framework sources a generated project's `tsconfig.json` points editors at. */
export const frameworkDir = join(packageRoot, 'framework');

/** The folder of an installed package as this CLI resolves it (hoisted or nested, whichever npm chose). */
export function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`, { paths: [packageRoot] }));
}
