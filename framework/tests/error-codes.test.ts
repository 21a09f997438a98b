import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { ERROR_CODES, TrellisError } from '../index';

it('documents every framework error code in docs/errors.md, and no other', () => {
  const page = readFileSync(join(__dirname, '..', '..', 'docs', 'errors.md'), 'utf8');
  const documented = [...page.matchAll(/^\| `(TRELLIS_ERR_[A-Z_]+)` \|/gm)].map((m) => m[1]).sort();
  assert.deepEqual(documented, Object.keys(ERROR_CODES).sort());
});

it('fills the message template and keeps the code', () => {
  const error = new TrellisError('TRELLIS_ERR_DUPLICATE_ROUTE', 'GET /a', 'A.one', 'B.two');
  assert.equal(error.code, 'TRELLIS_ERR_DUPLICATE_ROUTE');
  assert.equal(error.message, 'Duplicate route GET /a: A.one and B.two declare the same method and path');
});
