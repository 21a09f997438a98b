import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { planBlueprint, planOverlay } from './blueprint';
import { GeneratorError } from './generator-error';
import { runBlueprint, type WrittenFile } from './plop-runner';
import { resourceNames, type ResourceNames } from './resource-names';
import { addTable, SCHEMA_FILE } from './schema-file';

export interface AddResourceRequest {
  /** What the user typed: `notes`, `order-items`. */
  name: string;
  /** The project folder (it holds `config.yaml`), relative to `cwd` or absolute. */
  dir: string;
  cwd?: string;
  /** Report the files, write nothing. */
  dryRun?: boolean;
}

export interface AddResourceResult {
  root: string;
  names: ResourceNames;
  /** Whether the project keeps its data in a database (config.yaml has a `database:` section). */
  db: boolean;
  /** The files written, the migration among them on a database. */
  files: WrittenFile[];
  /** The files changed: db/schema.ts on a database. */
  updated: WrittenFile[];
}

/**
 * `trellis add resource <name>`: a router with list (paged), get, create, replace and delete, its DTO, a service
 * and a test. In a project with a `database:` section in config.yaml, the service is on Kysely, a migration
 * (the next number in migrations/) makes its table and db/schema.ts gets the table's interface; in memory
 * otherwise. Refuses, writing nothing, a folder that is not a project, a file that exists and a table
 * db/schema.ts already has.
 *
 * @example
 * ```ts
 * await addResource({ name: 'notes', dir: 'shop' }); // routers/notes.ts, services/notes_service.ts, tests/notes.test.ts
 * ```
 */
export async function addResource(request: AddResourceRequest): Promise<AddResourceResult> {
  const names = resourceNames(request.name);
  const root = resolve(request.cwd ?? process.cwd(), request.dir);
  const config = join(root, 'config.yaml');
  if (!statSync(config, { throwIfNoEntry: false })?.isFile()) throw new GeneratorError('not-a-project', root);
  const db = /^database\s*:/m.test(readFileSync(config, 'utf8'));
  const migration = db ? `${nextMigrationNumber(join(root, 'migrations'))}_create_${names.stem}` : '';
  const placeholders = { name: names.stem, migration };
  const files = db ? planOverlay(planBlueprint('resource', placeholders), planBlueprint('resource-db', placeholders)) : planBlueprint('resource', placeholders);
  for (const file of files) {
    if (existsSync(join(root, file.target))) throw new GeneratorError('file-exists', join(request.dir, file.target));
  }
  const schema = db ? addTable(readSchema(root, request.dir), names) : undefined;
  const data = { ...names, db, migration: `migrations/${migration}.ts` };
  const destination = request.dryRun ? mkdtempSync(join(tmpdir(), 'trellis-')) : root;
  try {
    const written = await runBlueprint('resource', files, data, destination);
    if (schema === undefined) return { root, names, db, files: written, updated: [] };
    if (!request.dryRun) writeFileSync(join(root, SCHEMA_FILE), schema);
    return { root, names, db, files: written, updated: [{ path: SCHEMA_FILE, bytes: Buffer.byteLength(schema) }] };
  } finally {
    if (request.dryRun) rmSync(destination, { recursive: true, force: true });
  }
}

function readSchema(root: string, dir: string): string {
  const file = join(root, SCHEMA_FILE);
  if (!existsSync(file)) throw new GeneratorError('no-tables-interface', join(dir, SCHEMA_FILE), 'the file is missing');
  return readFileSync(file, 'utf8');
}

/** `0004` when migrations/ holds `0001_...` to `0003_...`; `0001` for none. */
function nextMigrationNumber(folder: string): string {
  const numbers = existsSync(folder) ? readdirSync(folder).map((file) => /^(\d+)_/.exec(file)?.[1]).filter((n) => n !== undefined) : [];
  const next = Math.max(0, ...numbers.map(Number)) + 1;
  return String(next).padStart(4, '0');
}
