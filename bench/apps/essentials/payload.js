'use strict';
// The 20 KB JSON answer of the compression cells (GET /reports/tasks): a list of tasks as an API answers one,
// varied enough that it compresses as real JSON does (about 8:1 with gzip), the same bytes from both apps.

const WORDS = ['deploy', 'review', 'billing', 'report', 'customer', 'urgent', 'backend', 'release', 'invoice', 'migrate', 'design', 'audit'];

/** A list of tasks whose JSON is `bytes` long or just over. */
function tasksOfSize(bytes) {
  const tasks = [];
  let length = 2;
  for (let id = 1; length < bytes; id++) {
    const task = {
      id,
      title: `${WORDS[id % 12]} the ${WORDS[(id * 7) % 12]} for ${WORDS[(id * 5) % 12]} #${id}`,
      completed: id % 3 === 0,
      priority: ['low', 'normal', 'high'][id % 3],
      owner: { id: (id * 37) % 101, name: `user${(id * 37) % 101}` },
      tags: [WORDS[(id * 3) % 12], WORDS[(id * 11) % 12]],
      created_at: new Date(Date.UTC(2026, 0, 1) + id * 3_600_017).toISOString(),
    };
    length += JSON.stringify(task).length + 1;
    tasks.push(task);
  }
  return tasks;
}

const REPORT = tasksOfSize(20 * 1024);

module.exports = { REPORT, tasksOfSize };
