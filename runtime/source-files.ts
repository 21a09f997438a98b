import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const SOURCE = /\.(ts|js)$/;
const SKIPPED = /(\.d\.ts|\.test\.(ts|js)|\.spec\.(ts|js))$/;

/**
 * The loadable source files under `<dir>/<folder>` (recursively), as paths relative to `dir` with `/`,
 * sorted so discovery order is the same on every machine. Tests, declaration files, dot-files and
 * `node_modules` are left out.
 *
 * @example
 * ```ts
 * sourceFiles('/home/me/demo', 'routers'); // ['routers/tasks.ts', 'routers/v2/items.ts']
 * ```
 */
export function sourceFiles(dir: string, folder: string): string[] {
  const root = join(dir, folder);
  if (!existsSync(root)) return [];
  const found: string[] = [];
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && SOURCE.test(entry.name) && !SKIPPED.test(entry.name)) {
        found.push(relative(dir, full).split(sep).join('/'));
      }
    }
  };
  walk(root);
  return found.sort();
}

/** `middleware/auth/jwt.ts` -> `auth/jwt` (the name config.yaml uses). */
export function moduleName(file: string, folder: string): string {
  return file.slice(folder.length + 1).replace(SOURCE, '');
}
