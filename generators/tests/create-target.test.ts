import assert from 'node:assert/strict';
import fs, { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, mock } from 'node:test';
import { createProject, GeneratorError } from '../index';
import { createFixture, FULL } from '../test-support/create-fixture';
import { listFiles, treeHash } from '../test-support/tree';

// Where create may write, and what it leaves when it may not or fails.

const { cwd, request, read } = createFixture();

describe('create refuses, writing nothing', () => {
  const refused = (reason: string, subject: string) => (error: unknown) =>
    error instanceof GeneratorError && error.reason === reason && error.subject === subject;

  it('invalid project names', async () => {
    mkdirSync(join(cwd().path, 'a'));
    const before = treeHash(cwd().path);
    for (const name of ['../x', '/abs', 'a/b', '', 'Demo', 'http', '.x']) {
      await assert.rejects(createProject(request({ name })), refused('invalid-project-name', name), name);
    }
    assert.equal(treeHash(cwd().path), before);
  });

  it('a non-empty folder without force, and a file in the way', async () => {
    mkdirSync(join(cwd().path, 'demo'));
    writeFileSync(join(cwd().path, 'demo', 'notes.txt'), 'mine');
    writeFileSync(join(cwd().path, 'file'), 'x');
    const before = treeHash(cwd().path);
    await assert.rejects(createProject(request()), refused('target-not-empty', 'demo'));
    await assert.rejects(createProject(request({ name: 'file', force: true })), refused('target-not-a-folder', 'file'));
    assert.equal(treeHash(cwd().path), before);
  });

  it('a failure while rendering leaves no project and no temporary folder', async () => {
    const before = treeHash(cwd().path);
    const copy = mock.method(fs, 'copyFileSync', () => {
      throw new Error('disk full');
    });
    try {
      await assert.rejects(createProject(request()), (error: GeneratorError) => {
        return error.reason === 'render-failed' && error.subject === '.gitignore' && error.detail === 'disk full';
      });
    } finally {
      copy.mock.restore();
    }
    assert.equal(treeHash(cwd().path), before);
    assert.deepEqual(readdirSync(cwd().path), []);
  });

  it('a dry run reports the files and writes nothing', async () => {
    const before = treeHash(cwd().path);
    const result = await createProject(request({ dryRun: true }));
    assert.deepEqual(result.files.map((f) => f.path).sort(), FULL);
    assert.ok(result.files.every((f) => f.bytes > 0));
    assert.equal(treeHash(cwd().path), before);
  });
});

describe('create into existing folders', () => {
  it('uses an empty folder', async () => {
    mkdirSync(join(cwd().path, 'demo'));
    await createProject(request());
    assert.deepEqual(listFiles(join(cwd().path, 'demo')), FULL);
  });

  it('with force, replaces the files the project has and keeps the others', async () => {
    mkdirSync(join(cwd().path, 'demo', 'routers'), { recursive: true });
    writeFileSync(join(cwd().path, 'demo', 'notes.txt'), 'mine');
    writeFileSync(join(cwd().path, 'demo', 'config.yaml'), 'old: true\n');
    writeFileSync(join(cwd().path, 'demo', 'routers', 'legacy.ts'), '// legacy\n');
    await createProject(request({ force: true }));
    assert.deepEqual(listFiles(join(cwd().path, 'demo')), [...FULL, 'notes.txt', 'routers/legacy.ts'].sort());
    assert.equal(read('notes.txt'), 'mine');
    assert.match(read('config.yaml'), /^app:\n  title: "Demo API"\n/m);
    assert.deepEqual(readdirSync(cwd().path), ['demo']);
  });
});
