import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { addResource, GeneratorError, resourceNames } from '../index';
import { blueprintsDir } from '../paths';
import { listFiles, tempDir, treeHash } from '../test-support/tree';

let project: ReturnType<typeof tempDir>;
beforeEach(() => (project = tempDir()));
afterEach(() => project.remove());

const read = (file: string) => readFileSync(join(project.path, file), 'utf8');
const write = (file: string, text: string) => {
  mkdirSync(join(project.path, file, '..'), { recursive: true });
  writeFileSync(join(project.path, file), text);
};
/** A project as `create --db --minimal` leaves it, as far as `add resource` reads it. */
function dbProject(): void {
  write('config.yaml', 'app:\n  title: Shop\ndatabase:\n  url: ${DATABASE_URL:-}\n');
  write('db/schema.ts', readFileSync(join(blueprintsDir, 'project-db', 'db', 'schema.ts.hbs'), 'utf8').replace(/\{\{#if [^}]+\}\}[\s\S]*?\{\{\/if\}\}\n/g, ''));
  write('migrations/0001_create_tasks.ts', '');
}

describe('resource names', () => {
  it('keep the name for files, path and table, and make the record singular', () => {
    const notes = resourceNames('notes');
    assert.deepEqual(notes, {
      stem: 'notes',
      basePath: '/notes',
      label: 'notes',
      routerClass: 'NotesRouter',
      serviceClass: 'NotesService',
      serviceStem: 'notes_service',
      entity: 'Note',
      entityLabel: 'note',
      idParam: 'note_id',
      itemPath: '/{note_id}',
      property: 'notes',
    });
    const cases: Array<[string, string, string, string]> = [
      ['order-items', 'order_items', 'OrderItem', 'orderItems'],
      ['categories', 'categories', 'Category', 'categories'],
      ['boxes', 'boxes', 'Box', 'boxes'],
      ['status', 'status', 'Status', 'status'],
      ['note', 'note', 'Note', 'note'],
    ];
    for (const [name, stem, entity, property] of cases) {
      const names = resourceNames(name);
      assert.deepEqual([names.stem, names.entity, names.property], [stem, entity, property], name);
    }
  });

  it('refuse a name that is no identifier, or whose record would hide an import or a global', () => {
    for (const [name, detail] of [
      ['9lives', 'use letters, digits, "-" and "_", starting with a letter'],
      ['my notes', 'use letters, digits, "-" and "_", starting with a letter'],
      ['paths', 'a record named Path would hide an import of the router'],
      ['dates', 'a record named Date would hide the global Date'],
    ]) {
      assert.throws(() => resourceNames(name), (error: GeneratorError) => error.reason === 'invalid-name' && error.detail === detail, name);
    }
  });
});

describe('add resource, in memory', () => {
  it('writes the router, the service and the test, and no migration without a database: section', async () => {
    write('config.yaml', 'app:\n  title: Shop\n');
    const result = await addResource({ name: 'notes', dir: project.path });
    assert.equal(result.db, false);
    assert.deepEqual(result.files.map((file) => file.path), ['routers/notes.ts', 'services/notes_service.ts', 'tests/notes.test.ts']);
    assert.deepEqual(result.updated, []);
    assert.deepEqual(listFiles(project.path), ['config.yaml', 'routers/notes.ts', 'services/notes_service.ts', 'tests/notes.test.ts']);
    assert.match(read('services/notes_service.ts'), /^export class NotesService \{\n {2}private readonly items = new Map<number, Note>\(\);$/m);
    assert.ok(!read('tests/notes.test.ts').includes('testDatabase'));
    assert.match(read('routers/notes.ts'), /^ {2}@Get\('\/\{note_id\}'\)$/m);
    assert.ok(!/\{\{|\}\}/.test(read('routers/notes.ts') + read('services/notes_service.ts') + read('tests/notes.test.ts')));
  });
});

describe('add resource, on a database', () => {
  it('writes a Kysely service, the next migration, a test on testDatabase, and adds the table to db/schema.ts', async () => {
    dbProject();
    write('migrations/0007_other.ts', '');
    const result = await addResource({ name: 'order-items', dir: project.path });
    assert.equal(result.db, true);
    assert.deepEqual(result.files.map((file) => file.path), [
      'routers/order_items.ts',
      'services/order_items_service.ts',
      'tests/order_items.test.ts',
      'migrations/0008_create_order_items.ts',
    ]);
    assert.deepEqual(result.updated, [{ path: 'db/schema.ts', bytes: Buffer.byteLength(read('db/schema.ts')) }]);
    assert.match(read('services/order_items_service.ts'), /^ {2}constructor\(private readonly db: Kysely<Tables>\) \{\}$/m);
    assert.match(read('services/order_items_service.ts'), /^import \{ Kysely, sql \} from 'kysely';$/m);
    assert.match(read('tests/order_items.test.ts'), /register\(testDatabase\(\{ migrations: 'migrations' \}\)\)/);
    assert.match(read('migrations/0008_create_order_items.ts'), /\.createTable\('order_items'\)/);
    assert.match(read('db/schema.ts'), /^export interface Tables \{\n {2}tasks: TaskTable;\n {2}order_items: OrderItemTable;\n\}$/m);
    assert.ok(
      read('db/schema.ts').endsWith('\nexport interface OrderItemTable {\n  id: Generated<number>;\n  name: string;\n  description: string;\n}\n'),
      read('db/schema.ts'),
    );
  });

  it('numbers the first migration 0001, and imports Generated into a schema that lacks it', async () => {
    write('config.yaml', 'database:\n  url: ""\n');
    write('db/schema.ts', 'export interface Tables {\n}\n');
    await addResource({ name: 'notes', dir: project.path });
    assert.deepEqual(readdirSync(join(project.path, 'migrations')), ['0001_create_notes.ts']);
    assert.equal(
      read('db/schema.ts'),
      "import type { Generated } from 'kysely';\nexport interface Tables {\n  notes: NoteTable;\n}\n\nexport interface NoteTable {\n  id: Generated<number>;\n  name: string;\n  description: string;\n}\n",
    );
  });

  it('reports the files and the schema change with --dry-run, writing nothing', async () => {
    dbProject();
    const before = treeHash(project.path);
    const result = await addResource({ name: 'notes', dir: project.path, dryRun: true });
    assert.equal(result.files.length, 4);
    assert.equal(result.updated[0].path, 'db/schema.ts');
    assert.ok(result.updated[0].bytes > 0);
    assert.equal(treeHash(project.path), before);
  });
});

describe('add resource refuses, writing nothing', () => {
  const refusals: Array<[string, () => void, string, GeneratorError['reason'], string]> = [
    ['a folder without config.yaml', () => {}, 'notes', 'not-a-project', ''],
    ['an existing router file', () => (dbProject(), write('routers/notes.ts', '// mine\n')), 'notes', 'file-exists', 'routers/notes.ts'],
    ['a table db/schema.ts has', () => dbProject(), 'tasks', 'table-exists', 'tasks'],
    ['a db/schema.ts without its Tables interface', () => (dbProject(), write('db/schema.ts', 'export type Tables = {};\n')), 'notes', 'no-tables-interface', 'db/schema.ts'],
    ['a missing db/schema.ts', () => write('config.yaml', 'database:\n  url: ""\n'), 'notes', 'no-tables-interface', 'db/schema.ts'],
    ['a bad name', () => dbProject(), 'no/tes', 'invalid-name', 'no/tes'],
  ];
  for (const [what, arrange, name, reason, subject] of refusals) {
    it(what, async () => {
      arrange();
      const before = treeHash(project.path);
      await assert.rejects(addResource({ name, dir: project.path }), (error: GeneratorError) => {
        assert.equal(error.reason, reason);
        if (subject) assert.ok(error.subject.endsWith(subject), error.subject);
        return true;
      });
      assert.equal(treeHash(project.path), before);
    });
  }
});
