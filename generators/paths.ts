import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The trellis package: the folder holding `package.json` and `blueprints/`. From the sources that is the parent
 * of `generators/`; from the compiled package (`dist/generators/`) it is one level higher.
 */
export const packageRoot = findPackageRoot(__dirname);

/** Where the blueprints (plain project files) live. */
export const blueprintsDir = join(packageRoot, 'blueprints');

function findPackageRoot(start: string): string {
  for (let dir = dirname(start); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'blueprints'))) return dir;
    if (dirname(dir) === dir) throw new Error(`trellis: no package.json next to blueprints/ above ${start}`);
  }
}
