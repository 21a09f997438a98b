import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { detailNames } from '../framework-error';
import { ERROR_CODES, TrellisError, type ErrorCode } from '../framework-error';

it('documents every framework error code in docs/reference/errors.md with its details, and no other', () => {
  const page = readFileSync(join(__dirname, '..', '..', 'docs', 'reference', 'errors.md'), 'utf8');
  const rows = [...page.matchAll(/^\| `(TRELLIS_ERR_[A-Z_]+)` \| ([^|]*) \|/gm)];
  assert.deepEqual(rows.map((m) => m[1]).sort(), Object.keys(ERROR_CODES).sort());
  for (const [, code, details] of rows) assert.equal(details, detailNames(code as ErrorCode).map((name) => `\`${name}\``).join(', '), code);
});

it('names every value of every message: the keys of its details', () => {
  for (const [code, template] of Object.entries(ERROR_CODES)) {
    assert.doesNotMatch(template, /%(?!\{\w+\})/, `${code} has a placeholder without a name`);
  }
  const error = new TrellisError('TRELLIS_ERR_UNKNOWN_DEPENDENCY', 'TaskRouter', 'TaskService', 1, 'tasks', 'TaskService');
  assert.equal(error.message, 'TaskRouter needs TaskService (constructor parameter 1, tasks), which is not provided: call app.provide(TaskService)');
  assert.deepEqual(error.details, { consumer: 'TaskRouter', dependency: 'TaskService', parameter: 1, name: 'tasks' });
});

it('fills the message template and keeps the code', () => {
  const error = new TrellisError('TRELLIS_ERR_DUPLICATE_ROUTE', 'GET /a', 'A.one', 'B.two');
  assert.equal(error.code, 'TRELLIS_ERR_DUPLICATE_ROUTE');
  assert.equal(error.message, 'Duplicate route GET /a: A.one and B.two declare the same method and path');
});
