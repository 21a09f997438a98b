import type { PGlite } from '@electric-sql/pglite';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';

/**
 * Opens a PGlite in memory (`dataDir` undefined) or in a folder. A new database (in memory, or a folder that is
 * missing or empty) is loaded from a dump of a new, empty PGlite cluster, made once per PGlite version and kept
 * as `pglite-<version>.tar.gz` in `node_modules/.cache/trellis` (or `TRELLIS_CACHE_DIR`): PGlite otherwise runs
 * initdb, about 4 s of CPU, where the dump loads in under 1 s. `TRELLIS_CACHE=off`, an unreadable dump or a
 * cache folder that cannot be written: the plain way.
 */
export async function openPGlite(dataDir: string | undefined): Promise<PGlite> {
  const { PGlite: Client } = require('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
  if (dataDir !== undefined && !emptyOrMissing(dataDir)) return ready(new Client(dataDir));
  const dump = templateFile();
  const template = dump && readQuietly(dump);
  if (template) {
    try {
      // The options object alone: PGlite reads a second argument only after a dataDir string.
      return await ready(new Client({ dataDir, loadDataDir: new Blob([template]) }));
    } catch {
      // A dump this PGlite cannot load: make a new one below.
      rmSync(dump!, { force: true });
      if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const client = await ready(new Client({ dataDir }));
  if (dump) await saveTemplate(client, dump);
  return client;
}

async function ready(client: PGlite): Promise<PGlite> {
  try {
    await client.waitReady;
    return client;
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
}

function emptyOrMissing(folder: string): boolean {
  try {
    return readdirSync(folder).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

/** Where the dump of this PGlite version lives, or undefined when the cache is off or there is no node_modules. */
function templateFile(): string | undefined {
  if (process.env.TRELLIS_CACHE === 'off') return undefined;
  const entry = require.resolve('@electric-sql/pglite');
  const version = (JSON.parse(readFileSync(join(entry, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
  const modules = entry.lastIndexOf(`${sep}node_modules${sep}`);
  const folder = process.env.TRELLIS_CACHE_DIR
    ? resolve(process.env.TRELLIS_CACHE_DIR)
    : modules < 0 ? undefined : join(entry.slice(0, modules), 'node_modules', '.cache', 'trellis');
  return folder && join(folder, `pglite-${version}.tar.gz`);
}

function readQuietly(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

// Dumped before anything is written to it, so it holds an empty cluster; written aside and renamed, so a reader
// never sees half a file.
async function saveTemplate(client: PGlite, file: string): Promise<void> {
  try {
    const dump = Buffer.from(await (await client.dumpDataDir('gzip')).arrayBuffer());
    mkdirSync(dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, dump);
    renameSync(partial, file);
  } catch {
    // No cache: the next open runs initdb again.
  }
}
