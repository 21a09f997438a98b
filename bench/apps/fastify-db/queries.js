'use strict';
// The SQL the `trellis create --db` sample's TaskService runs for GET /tasks/{id} and POST /tasks, written with the
// same Kysely calls (blueprints/ services/task_service.ts of the --db project), so the peer sends the database the
// same statements. bench/tests/database.test.js compares the two, statement by statement.

/**
 * The task with this id, or undefined.
 * @param {import('kysely').Kysely<any>} db
 * @param {number} id
 */
function getTask(db, id) {
  return db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Inserts a task and resolves to it, with its new id.
 * @param {import('kysely').Kysely<any>} db
 * @param {{ title: string, description?: string | null, completed?: boolean | null }} input
 */
function addTask(db, input) {
  const row = { title: input.title, description: input.description ?? '', completed: input.completed ?? false };
  return db.insertInto('tasks').values(row).returningAll().executeTakeFirstOrThrow();
}

module.exports = { getTask, addTask };
