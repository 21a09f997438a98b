import { lstatSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { GeneratorError } from './generator-error';
import { checkProjectName } from './names';
import type { WrittenFile } from './plop-runner';

/**
 * Where `create` writes `<cwd>/<name>`: the name must be valid, and the folder missing or empty unless `force`.
 * Throws `GeneratorError` ('invalid-project-name', 'target-not-a-folder', 'target-not-empty').
 */
export function checkTarget(cwd: string, name: string, force = false): string {
  checkProjectName(name);
  const target = resolve(cwd, name);
  const stat = lstatSync(target, { throwIfNoEntry: false });
  if (!stat) return target;
  if (!stat.isDirectory()) throw new GeneratorError('target-not-a-folder', name);
  if (!force && readdirSync(target).length > 0) throw new GeneratorError('target-not-empty', name);
  return target;
}

/**
 * Moves a rendered project from `staging` (a sibling folder, so this is a rename on one file system) to
 * `target`: the whole folder at once when `target` is missing or empty; file by file over an existing
 * folder (`--force`), replacing the files the blueprint has and leaving the others.
 */
export function moveIntoPlace(staging: string, target: string, files: readonly WrittenFile[]): void {
  const stat = lstatSync(target, { throwIfNoEntry: false });
  if (stat?.isDirectory() && readdirSync(target).length === 0) rmdirSync(target);
  if (!lstatSync(target, { throwIfNoEntry: false })) {
    renameSync(staging, target);
    return;
  }
  for (const file of files) {
    const destination = join(target, file.path);
    makeParents(target, dirname(file.path));
    if (lstatSync(destination, { throwIfNoEntry: false })?.isDirectory()) rmSync(destination, { recursive: true });
    renameSync(join(staging, file.path), destination);
  }
}

// With --force, a file standing where the blueprint has a folder (e.g. a file named `routers`) gives way.
function makeParents(root: string, relative: string): void {
  let current = root;
  for (const segment of relative.split('/').filter((s) => s !== '.' && s !== '')) {
    current = join(current, segment);
    const stat = lstatSync(current, { throwIfNoEntry: false });
    if (stat && !stat.isDirectory()) rmSync(current);
    if (!stat || !stat.isDirectory()) mkdirSync(current);
  }
}
