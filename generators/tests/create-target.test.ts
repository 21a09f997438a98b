import assert from 'node:assert/strict';
import fs, { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { createProject, GeneratorError, resolveExamples, type CreateRequest } from '../index';
import { listFiles, tempDir, treeHash } from '../test-support/tree';

// Where create may write, and what it leaves when it may not or fails.

let cwd: ReturnType<typeof tempDir>;
beforeEach(() => (cwd = tempDir()));
afterEach(() => cwd.remove());

function request(overrides: Partial<CreateRequest> = {}): CreateRequest {
  return {
    cwd: cwd.path,
    name: 'demo',
    title: 'Demo API',
    description: 'A demo.',
    port: 8000,
    examples: resolveExamples(['products', 'users', 'upload', 'pages', 'admin']),
    adminToken: 'secret-token',
    ...overrides,
  };
}
const read = (file: string) => readFileSync(join(cwd.path, 'demo', file), 'utf8');

const FULL = [
  '.gitignore',
  'README.md',
  'config.yaml',
  'favicon.ico',
  'middleware/require_token.ts',
  'middleware/timing.ts',
  'package.json',
  'routers/admin.ts',
  'routers/pages.ts',
  'routers/posts.ts',
  'routers/products.ts',
  'routers/tasks.ts',
  'routers/upload.ts',
  'routers/users.ts',
  'services/product_service.ts',
  'services/task_service.ts',
  'services/user_service.ts',
  'static/style.css',
  'templates/index.html',
  'tests/tasks.test.ts',
  'tsconfig.json',
];

describe('create refuses, writing nothing', () => {
  const refused = (reason: string, subject: string) => (error: unknown) =>
    error instanceof GeneratorError && error.reason === reason && error.subject === subject;

  it('invalid project names', async () => {
    mkdirSync(join(cwd.path, 'a'));
    const before = treeHash(cwd.path);
    for (const name of ['../x', '/abs', 'a/b', '', 'Demo', 'http', '.x']) {
      await assert.rejects(createProject(request({ name })), refused('invalid-project-name', name), name);
    }
    assert.equal(treeHash(cwd.path), before);
  });

  it('a non-empty folder without force, and a file in the way', async () => {
    mkdirSync(join(cwd.path, 'demo'));
    writeFileSync(join(cwd.path, 'demo', 'notes.txt'), 'mine');
    writeFileSync(join(cwd.path, 'file'), 'x');
    const before = treeHash(cwd.path);
    await assert.rejects(createProject(request()), refused('target-not-empty', 'demo'));
    await assert.rejects(createProject(request({ name: 'file', force: true })), refused('target-not-a-folder', 'file'));
    assert.equal(treeHash(cwd.path), before);
  });

  it('a failure while rendering leaves no project and no temporary folder', async () => {
    const before = treeHash(cwd.path);
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
    assert.equal(treeHash(cwd.path), before);
    assert.deepEqual(readdirSync(cwd.path), []);
  });

  it('a dry run reports the files and writes nothing', async () => {
    const before = treeHash(cwd.path);
    const result = await createProject(request({ dryRun: true }));
    assert.deepEqual(result.files.map((f) => f.path).sort(), FULL);
    assert.ok(result.files.every((f) => f.bytes > 0));
    assert.equal(treeHash(cwd.path), before);
  });
});

describe('create into existing folders', () => {
  it('uses an empty folder', async () => {
    mkdirSync(join(cwd.path, 'demo'));
    await createProject(request());
    assert.deepEqual(listFiles(join(cwd.path, 'demo')), FULL);
  });

  it('with force, replaces the files the project has and keeps the others', async () => {
    mkdirSync(join(cwd.path, 'demo', 'routers'), { recursive: true });
    writeFileSync(join(cwd.path, 'demo', 'notes.txt'), 'mine');
    writeFileSync(join(cwd.path, 'demo', 'config.yaml'), 'old: true\n');
    writeFileSync(join(cwd.path, 'demo', 'routers', 'legacy.ts'), '// legacy\n');
    await createProject(request({ force: true }));
    assert.deepEqual(listFiles(join(cwd.path, 'demo')), [...FULL, 'notes.txt', 'routers/legacy.ts'].sort());
    assert.equal(read('notes.txt'), 'mine');
    assert.match(read('config.yaml'), /^app: \{ title: "Demo API"/m);
    assert.deepEqual(readdirSync(cwd.path), ['demo']);
  });
});
