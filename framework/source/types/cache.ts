import { createHash, randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { TypeTable } from './table';

/** A table read from sources, with the content hash of every project file of the program it was read with. */
export interface CachedTable {
  key: string;
  /** Hash of each file's content, by absolute path. */
  files: Record<string, string>;
  table: TypeTable;
}

const FORMAT = 1;
const memory = new Map<string, { stamps: Record<string, string>; table: TypeTable }>();

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** The key of the table of `inputs` (the files read, the versions of the tools that read them). */
export function cacheKey(inputs: string[]): string {
  return sha256([`format ${FORMAT}`, ...inputs].join('\0'));
}

/** The content hash of each file (undefined for one that cannot be read). */
export function hashFiles(files: string[]): Record<string, string | undefined> {
  return Object.fromEntries(files.map((file) => [file, hashFile(file)]));
}

function hashFile(file: string): string | undefined {
  try {
    return sha256(readFileSync(file));
  } catch {
    return undefined;
  }
}

/**
 * The table cached under `key` whose files are all unchanged: in this process (checked by modification time
 * and size), else on disk in `dir` (checked by content hash). Undefined when there is none.
 */
export function cachedTable(key: string, dir: string | undefined): TypeTable | undefined {
  const inMemory = memory.get(key);
  if (inMemory && Object.entries(inMemory.stamps).every(([file, stamp]) => stampOf(file) === stamp)) return inMemory.table;
  if (!dir) return undefined;
  let entry: CachedTable;
  try {
    entry = JSON.parse(readFileSync(join(dir, `${key}.json`), 'utf8')) as CachedTable;
  } catch {
    return undefined;
  }
  if (entry?.key !== key || typeof entry.files !== 'object' || !entry.table) return undefined;
  if (Object.entries(entry.files).some(([file, hash]) => hashFile(file) !== hash)) return undefined;
  remember(key, Object.keys(entry.files), entry.table);
  return entry.table;
}

/** Keeps `table` for this process and, when `dir` is usable, on disk (a failure to write only means no entry). */
export function storeTable(key: string, dir: string | undefined, files: string[], table: TypeTable): void {
  remember(key, files, table);
  if (!dir) return;
  const hashes: Record<string, string> = {};
  for (const [file, hash] of Object.entries(hashFiles(files))) if (hash) hashes[file] = hash;
  writeCacheEntry(join(dir, `${key}.json`), JSON.stringify({ key, files: hashes, table } satisfies CachedTable));
}

/**
 * Writes a cache entry whole or not at all: to a temporary name, then renamed into place (processes writing the
 * same entry at once each leave a whole one), readable by this user only. A failure (disk full, folder removed)
 * only means no entry.
 *
 * @example
 * ```ts
 * writeCacheEntry(join(cacheDir(projectDir, undefined, 'config')!, `${key}.json`), JSON.stringify(snapshot));
 * ```
 */
export function writeCacheEntry(file: string, text: string | Uint8Array): void {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, text, { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    rmSync(temporary, { force: true });
  }
}

/** Forgets what this process read (for tests). */
export function clearMemoryCache(): void {
  memory.clear();
}

function remember(key: string, files: string[], table: TypeTable): void {
  const stamps: Record<string, string> = {};
  for (const file of files) stamps[file] = stampOf(file) ?? '';
  memory.set(key, { stamps, table });
}

function stampOf(file: string): string | undefined {
  try {
    const stat = statSync(file);
    return `${stat.mtimeMs}:${stat.size}`;
  } catch {
    return undefined;
  }
}

/**
 * Where tables (or, with `kind`, other things trellis derives from a project: `serializers`) are cached for the
 * project around `from`: `$TRELLIS_CACHE_DIR/<kind>` when set, else `node_modules/.cache/trellis/<kind>` of the
 * nearest folder with a package.json, else a private folder in the system's temporary folder (`given`, when set,
 * instead of all these); undefined when `TRELLIS_CACHE=off` or no folder is usable.
 *
 * @example
 * ```ts
 * cacheDir('/home/me/demo', undefined, 'config'); // '/home/me/demo/node_modules/.cache/trellis/config'
 * ```
 */
export function cacheDir(from: string, given?: string, kind = 'types'): string | undefined {
  if (given) return usable(resolve(given));
  if (process.env.TRELLIS_CACHE === 'off') return undefined;
  if (process.env.TRELLIS_CACHE_DIR) return usable(join(resolve(process.env.TRELLIS_CACHE_DIR), kind));
  const user = typeof process.getuid === 'function' ? process.getuid() : userInfo().username;
  const project = projectRoot(from);
  const candidates = [...(project ? [join(project, 'node_modules', '.cache', 'trellis', kind)] : []), join(tmpdir(), `trellis-cache-${user}`, kind)];
  for (const dir of candidates) if (usable(dir)) return dir;
  return undefined;
}

function projectRoot(from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

// A folder of this user's that only they can write (another user's folder in /tmp is refused).
function usable(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    if (!stat.isDirectory()) return undefined;
    if (process.platform !== 'win32' && (stat.uid !== process.getuid!() || (stat.mode & 0o022) !== 0)) return undefined;
    accessSync(dir, constants.W_OK);
    return dir;
  } catch {
    return undefined;
  }
}
