import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir, writeCacheEntry } from '../framework/internal';
import { createConfigSnapshot, type ConfigSnapshot } from './config-snapshot';

// Bumped when what a snapshot holds, or how it is read, changes: older entries are then never read.
const FORMAT = 1;

/**
 * The snapshot of `source` (config.yaml's text in project `dir`) that `trellis build` would keep in its manifest,
 * from the project's cache (`node_modules/.cache/trellis/config`, by a hash of the text and the YAML parser's
 * version): a `trellis run` whose config.yaml is unchanged since a previous start reads it as a built app does,
 * without loading the YAML parser (about 30 ms of its start). Made (and kept) when absent; undefined for a text
 * with an issue (the parser reads it and reports the issue) or with `TRELLIS_CACHE=off`.
 *
 * @example
 * ```ts
 * const snapshot = cachedConfigSnapshot(project.dir, readFileSync(file, 'utf8'));
 * const parsed = snapshot ? readConfigSnapshot(snapshot, process.env) : parseYaml(source, process.env);
 * ```
 */
export function cachedConfigSnapshot(dir: string, source: string): ConfigSnapshot | undefined {
  const folder = cacheDir(dir, undefined, 'config');
  if (!folder) return undefined;
  const yaml = (require('yaml/package.json') as { version: string }).version;
  const key = createHash('sha256').update(`config ${FORMAT} yaml ${yaml}\0${source}`).digest('hex');
  const file = join(folder, `${key}.json`);
  const cached = read(file);
  if (cached?.source === source) return cached;
  const snapshot = createConfigSnapshot(source);
  if (snapshot) writeCacheEntry(file, JSON.stringify(snapshot));
  return snapshot;
}

function read(file: string): ConfigSnapshot | undefined {
  try {
    const entry = JSON.parse(readFileSync(file, 'utf8')) as Partial<ConfigSnapshot> | null;
    const valid = typeof entry?.marker === 'string' && Array.isArray(entry.references) && Array.isArray(entry.lines);
    return valid ? (entry as ConfigSnapshot) : undefined;
  } catch {
    return undefined; // absent or damaged: made again
  }
}
