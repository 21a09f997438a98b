import { createHash } from 'node:crypto';
import { lstatSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';

/** A fresh folder under the system temp folder; `remove()` deletes it. */
export function tempDir(prefix = 'trellis-test-'): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Every file and folder under `dir`, relative, `/`-separated, sorted (folders end with `/`). */
export function listTree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((entry) => {
      const relative = join(entry.parentPath, entry.name).slice(dir.length + 1).split(sep).join('/');
      return entry.isDirectory() ? `${relative}/` : relative;
    })
    .sort();
}

/** The files of `dir` only (no folders), relative and sorted, `.git/` left out. */
export function listFiles(dir: string): string[] {
  return listTree(dir).filter((entry) => !entry.endsWith('/') && !entry.startsWith('.git/'));
}

/** A hash of everything under `dir`: names, kinds, modes and contents. Equal hashes = nothing changed. */
export function treeHash(dir: string): string {
  const hash = createHash('sha256');
  for (const entry of listTree(dir)) {
    const full = join(dir, entry);
    const stat = lstatSync(full);
    hash.update(`${entry}\0${stat.mode}\0`);
    if (stat.isSymbolicLink()) hash.update(readlinkSync(full));
    else if (stat.isFile()) hash.update(readFileSync(full));
  }
  return hash.digest('hex');
}
