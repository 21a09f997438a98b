import { sql, type Kysely } from 'kysely';

/**
 * The tasks table, with the two starting tasks. Inserted without ids, they take 1 and 2 from the identity
 * column, so the next task is 3; an identity never gives an id out twice, so a deleted task's id is not reused.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tasks')
    .addColumn('id', 'integer', (column) => column.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('title', 'text', (column) => column.notNull())
    .addColumn('description', 'text')
    .addColumn('completed', 'boolean', (column) => column.notNull().defaultTo(sql`false`))
    .execute();
  await db
    .insertInto('tasks')
    .values([
      { title: 'Read the trellis README', completed: false },
      { title: 'Write a router of my own', completed: false },
    ])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tasks').execute();
}
