import { GeneratorError } from './generator-error';
import type { ResourceNames } from './resource-names';

/** Where a `--db` project declares its tables for Kysely. */
export const SCHEMA_FILE = 'db/schema.ts';

const TABLES = /^export interface Tables \{\n([\s\S]*?)^\}/m;

/**
 * db/schema.ts with a resource's table added: its name in `interface Tables` and its row interface at the end
 * (the columns its migration makes). Throws `GeneratorError` when the file has no `export interface Tables {`
 * ('no-tables-interface') or already names the table ('table-exists').
 *
 * @example
 * ```ts
 * addTable(schema, resourceNames('notes')); // Tables gains `notes: NoteTable;`, and `interface NoteTable` follows
 * ```
 */
export function addTable(schema: string, names: ResourceNames): string {
  const tables = TABLES.exec(schema);
  if (!tables) throw new GeneratorError('no-tables-interface', SCHEMA_FILE, 'no `export interface Tables {` at the start of a line');
  if (new RegExp(`^\\s*['"]?${names.stem}['"]?\\??:`, 'm').test(tables[1])) throw new GeneratorError('table-exists', names.stem, SCHEMA_FILE);
  const end = tables.index + tables[0].length - 1;
  const withTable = `${schema.slice(0, end)}  ${names.stem}: ${names.entity}Table;\n${schema.slice(end)}`;
  const imported = /import\s+(?:type\s+)?\{[^}]*\bGenerated\b[^}]*\}\s+from\s+'kysely'/.test(schema);
  const row = `\nexport interface ${names.entity}Table {\n  id: Generated<number>;\n  name: string;\n  description: string;\n}\n`;
  return `${imported ? '' : "import type { Generated } from 'kysely';\n"}${withTable.replace(/\n*$/, '\n')}${row}`;
}
