'use strict';
// What the `trellis create --db` sample's TaskService (blueprints/project-db/services/task_service.ts) does for
// GET /tasks/{id} and POST /tasks, written with the same Kysely calls and the same row-to-task step, so the peer sends
// the database the same statements and answers the same bodies. bench/tests/database.test.js compares the two.

/**
 * @typedef {{ id: number, title: string, description: string | null, completed: boolean }} TaskRow
 * @typedef {{ id: number, title: string, description?: string, completed: boolean }} Task
 */

/**
 * The task with this id, or undefined.
 * @param {import('kysely').Kysely<any>} db
 * @param {number} id
 * @returns {Promise<Task | undefined>}
 */
async function getTask(db, id) {
  const row = await db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toTask(/** @type {TaskRow} */ (row));
}

/**
 * Inserts a task and resolves to it, with its new id.
 * @param {import('kysely').Kysely<any>} db
 * @param {{ title: string, description?: string | null, completed?: boolean | null }} input
 * @returns {Promise<Task>}
 */
async function addTask(db, input) {
  const fields = { title: input.title, description: input.description ?? '', completed: input.completed ?? false };
  const row = await db.insertInto('tasks').values(fields).returningAll().executeTakeFirstOrThrow();
  return toTask(/** @type {TaskRow} */ (row));
}

// A task held without a description (the two starting ones) is answered without the field, as the sample does.
/** @param {TaskRow} row @returns {Task} */
function toTask({ id, title, description, completed }) {
  return description === null ? { id, title, completed } : { id, title, description, completed };
}

module.exports = { getTask, addTask };
