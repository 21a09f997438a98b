import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readSourceTypes } from '../source/types/read';
import type { MethodTypes } from '../source/types/table';

const FIXTURE = join(__dirname, 'fixtures', 'source-statuses', 'routers.ts');
const cache = mkdtempSync(join(tmpdir(), 'trellis-statuses-'));
after(() => rmSync(cache, { recursive: true, force: true }));

describe('readSourceTypes: the statuses a handler body answers', () => {
  const table = readSourceTypes([FIXTURE], { cacheDir: cache })!;
  const facts = (method: string): MethodTypes => table.files[FIXTURE][`StatusRouter.${method}`];
  const statuses = (method: string) => facts(method).statuses?.map(({ status, message }) => (message ? { status, message } : { status }));

  it('reads `throw new HTTPException(status, message)`, the message only when it is a literal', () => {
    assert.deepEqual(statuses('literal'), [{ status: 404, message: 'Task 1 not found' }, { status: 418 }]);
  });

  it('follows a helper that returns a new HTTPException, also through a variable, an arrow and another helper', () => {
    assert.deepEqual(statuses('helper'), [{ status: 404 }]);
    assert.deepEqual(statuses('variable'), [{ status: 404 }]);
    assert.deepEqual(statuses('arrow'), [{ status: 403, message: 'Forbidden' }, { status: 404 }]);
  });

  it('reads the status a subclass of HTTPException gives super(...), through its ancestors', () => {
    assert.deepEqual(statuses('subclass'), [{ status: 409, message: 'Already there' }, { status: 410 }, { status: 429, message: 'Slow down' }]);
    assert.equal(facts('subclass').throws, undefined);
  });

  it('reads returned [body, status] tuples of 400 and more', () => {
    assert.deepEqual(facts('tuple').statuses?.map((fact) => fact.status), [404, 409]);
  });

  it('names the other classes a handler throws', () => {
    assert.deepEqual(facts('other'), { returns: facts('other').returns, throws: ['Error', 'QuotaExceeded'] });
  });

  it('reads arrow callbacks, not nested function or class declarations', () => {
    assert.deepEqual(statuses('callbacks'), [{ status: 400, message: 'Too big' }]);
  });

  it('leaves out what it cannot read, without failing: recursion, computed statuses, thrown non-objects', () => {
    assert.deepEqual(statuses('odd'), [{ status: 400 }, { status: 422, message: 'Bad id' }]);
    assert.equal(facts('odd').throws, undefined);
  });

  it('keeps one fact per status, with the message only when its throws agree', () => {
    assert.deepEqual(statuses('merged'), [{ status: 404 }, { status: 409, message: 'Same' }]);
  });
});

describe('readSourceTypes: the sample project tasks router', () => {
  it('documents the 404 its notFound(id) helper creates', () => {
    const file = join(__dirname, '..', '..', 'blueprints', 'project', 'routers', 'tasks.ts');
    const table = readSourceTypes([file], { cacheDir: cache });
    assert.ok(table);
    for (const method of ['one', 'replace', 'remove']) {
      assert.deepEqual(table.files[file][`TaskRouter.${method}`]?.statuses?.map((fact) => fact.status), [404], method);
    }
  });
});
