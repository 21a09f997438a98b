'use strict';
// The business logic every contender shares, so that the benchmark compares frameworks, not handlers:
// an in-memory task list shaped like the sample project's (tasks 1 and 2, ids never reused) and a small
// product catalogue searched with the converted query parameters.

class TaskStore {
  #tasks = new Map();
  #nextId = 1;

  constructor() {
    this.create({ title: 'Write the spec' });
    this.create({ title: 'Build the framework' });
  }

  get(id) {
    return this.#tasks.get(id);
  }

  create(input) {
    const task = {
      id: this.#nextId++,
      title: input.title,
      description: input.description ?? '',
      completed: input.completed ?? false,
    };
    this.#tasks.set(task.id, task);
    return task;
  }
}

const PRODUCTS = [
  { id: 1, name: 'Xylophone', price: 49.5, category: 'music' },
  { id: 2, name: 'Box of nails', price: 3.2, category: 'tools' },
  { id: 3, name: 'Axe', price: 25, category: 'tools' },
  { id: 4, name: 'Wax candle', price: 1.25, category: 'home' },
];

/**
 * Every contender answers `GET /products/search` with `{ query, items }`: `query` echoes the converted
 * parameters (page and limit integers, prices floats, absent optional values null).
 */
function searchProducts(query) {
  const needle = query.q.toLowerCase();
  const matches = PRODUCTS.filter(
    (p) =>
      p.name.toLowerCase().includes(needle) &&
      (query.category === null || p.category === query.category) &&
      (query.min_price === null || p.price >= query.min_price) &&
      (query.max_price === null || p.price <= query.max_price),
  );
  const start = (query.page - 1) * query.limit;
  return { query, items: matches.slice(start, start + query.limit) };
}

/** One store per process: a fresh server process starts from tasks 1 and 2. */
const tasks = new TaskStore();

module.exports = { tasks, searchProducts };
