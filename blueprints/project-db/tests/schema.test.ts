import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { Kysely, sql } from 'kysely';
import { BaseRouter, Get, Injectable, router } from 'trellis';
import { testDatabase } from 'trellis/database';
import { TestClient } from 'trellis/testing';
import ts from 'typescript';

// db/schema.ts is what the code believes; migrations/ is what the database holds. This test migrates a fresh
// database and compares the two: every table and column, its type and whether it takes null.

/** Each TypeScript type a column may have, and the PostgreSQL types (pg_type names) that come back as it. */
const TYPES: Record<string, string[]> = {
  string: ['text', 'varchar', 'bpchar', 'uuid'],
  number: ['int2', 'int4', 'float4', 'float8'],
  boolean: ['bool'],
  Date: ['timestamp', 'timestamptz', 'date'],
  'string[]': ['_text', '_varchar'],
  'number[]': ['_int2', '_int4', '_float4', '_float8'],
};

interface Column {
  type: string;
  nullable: boolean;
  generated: boolean;
}

/** The tables of `interface Tables` in db/schema.ts, each column's type as written. */
function declaredTables(): Record<string, Record<string, Column>> {
  const file = ts.createSourceFile('schema.ts', readFileSync('db/schema.ts', 'utf8'), ts.ScriptTarget.ES2022, true);
  const interfaces = new Map(file.statements.filter(ts.isInterfaceDeclaration).map((node) => [node.name.text, node]));
  const members = (name: string) => interfaces.get(name)?.members.filter(ts.isPropertySignature) ?? assert.fail(`db/schema.ts: no interface ${name}`);
  const tables: Record<string, Record<string, Column>> = {};
  for (const table of members('Tables')) {
    const columns: Record<string, Column> = (tables[table.name.getText(file)] = {});
    for (const column of members(table.type!.getText(file))) columns[column.name.getText(file)] = columnOf(column.type!, file);
  }
  return tables;
}

function columnOf(node: ts.TypeNode, file: ts.SourceFile): Column {
  const generated = ts.isTypeReferenceNode(node) && node.typeName.getText(file) === 'Generated';
  const inner = generated ? (node as ts.TypeReferenceNode).typeArguments![0] : node;
  const parts = ts.isUnionTypeNode(inner) ? inner.types.map((part) => part.getText(file)) : [inner.getText(file)];
  return { type: parts.filter((part) => part !== 'null').join(' | '), nullable: parts.includes('null'), generated };
}

@Injectable()
class SchemaRouter extends router('/schema') {
  constructor(private readonly db: Kysely<unknown>) {
    super();
  }

  /** The tables of the test's own schema, as the database describes them. */
  @Get()
  async tables() {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(this.db);
    const tables = await this.db.introspection.getTables();
    return tables.filter((table) => table.schema === rows[0].schema);
  }
}

it('db/schema.ts declares the tables and columns the migrations make', async (t) => {
  const client = new TestClient(new BaseRouter().register(testDatabase({ migrations: 'migrations' })).includeRouter(SchemaRouter));
  t.after(() => client.close());
  const res = await client.get('/schema');
  assert.equal(res.status, 200, res.text);
  const migrated: Record<string, Record<string, { dataType: string; nullable: boolean; generated: boolean }>> = {};
  for (const table of res.json<Array<{ name: string; columns: any[] }>>()) {
    migrated[table.name] = Object.fromEntries(
      table.columns.map((c) => [c.name, { dataType: c.dataType, nullable: c.isNullable, generated: c.hasDefaultValue || c.isAutoIncrementing }]),
    );
  }
  const declared = declaredTables();
  assert.deepEqual(Object.keys(migrated).sort(), Object.keys(declared).sort(), 'the tables');
  for (const [table, columns] of Object.entries(declared)) {
    assert.deepEqual(Object.keys(migrated[table]).sort(), Object.keys(columns).sort(), `the columns of ${table}`);
    for (const [name, column] of Object.entries(columns)) {
      const actual = migrated[table][name];
      const where = `${table}.${name}`;
      assert.ok(TYPES[column.type], `${where}: db/schema.ts says ${column.type}; add the PostgreSQL types it maps to TYPES`);
      assert.ok(TYPES[column.type].includes(actual.dataType), `${where}: ${actual.dataType} in the database, ${column.type} in db/schema.ts`);
      assert.equal(actual.nullable, column.nullable, `${where}: ${actual.nullable ? 'takes' : 'refuses'} null in the database`);
      if (column.generated) assert.ok(actual.generated, `${where}: Generated<> in db/schema.ts, but the database has no default for it`);
    }
  }
});
