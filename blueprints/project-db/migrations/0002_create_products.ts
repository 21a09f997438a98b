import { sql, type Kysely } from 'kysely';

/** The product catalogue, with the three products the sample starts with (ids 1 to 3). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('products')
    .addColumn('id', 'integer', (column) => column.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('price', 'double precision', (column) => column.notNull())
    .addColumn('description', 'text')
    .addColumn('tags', sql`text[]`, (column) => column.notNull().defaultTo(sql`'{}'`))
    .execute();
  await db
    .insertInto('products')
    .values([
      { name: 'Keyboard', price: 49.9, description: null, tags: ['hardware'] },
      { name: 'Coffee mug', price: 9.5, description: 'Holds 350 ml.', tags: ['kitchen'] },
      { name: 'Desk lamp', price: 29, description: null, tags: ['hardware', 'home'] },
    ])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('products').execute();
}
