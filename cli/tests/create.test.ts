import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { defaultTrellisRange } from '../../generators/dependencies';
import { blueprintsDir } from '../../generators/paths';
import { runCli } from '../../generators/test-support/cli-process';
import { listFiles, tempDir, treeHash } from '../../generators/test-support/tree';

const lines = (text: string) => text.split('\n').filter(Boolean);
// As a registry install of trellis-cli writes it (from this checkout, create would pack it: see e2e/distribution.test.ts).
const REGISTRY = ['--trellis-spec', defaultTrellisRange];

describe('trellis create', () => {
  let cwd: ReturnType<typeof tempDir>;
  beforeEach(() => (cwd = tempDir()));
  afterEach(() => cwd.remove());

  it('creates the project without asking when no terminal is attached', async () => {
    const { code, stdout, stderr } = await runCli(['create', 'demo', '--no-git', '--no-install', ...REGISTRY], cwd.path);
    assert.equal(stderr, '');
    assert.equal(code, 0);
    const out = lines(stdout);
    assert.equal(out.filter((line) => /^ {2}CREATE demo\/\S+ \(\d+ bytes\)$/.test(line)).length, 26);
    const tasksBytes = statSync(join(blueprintsDir, 'project', 'routers', 'tasks.ts')).size;
    assert.ok(out.includes(`  CREATE demo/routers/tasks.ts (${tasksBytes} bytes)`));
    assert.deepEqual(out.slice(-2), [
      'Created demo/ with 26 files.',
      'Next: `cd demo && npm install && npm run dev`, then open http://localhost:8000/docs/ (tests: `npm test`).',
    ]);
    assert.equal(listFiles(join(cwd.path, 'demo')).length, 26);
    assert.match(readFileSync(join(cwd.path, 'demo', 'config.yaml'), 'utf8'), /^app:\n  title: "Demo API"\n/m);
  });

  it('takes --title, --port and --minimal', async () => {
    const { code } = await runCli(['create', 'shop', '--yes', '--no-git', '--no-install', '--minimal', '--title', 'Shop', '--port', '3000', ...REGISTRY], cwd.path);
    assert.equal(code, 0);
    const config = readFileSync(join(cwd.path, 'shop', 'config.yaml'), 'utf8');
    assert.match(config, /^app:\n  title: "Shop"\n/m);
    assert.match(config, /^server:\n  host: localhost\n  port: 3000\n/m);
    assert.deepEqual(listFiles(join(cwd.path, 'shop', 'routers')), ['task_feed.ts', 'tasks.ts']);
  });

  it('initializes git outside a repository', async () => {
    const { code, stdout, stderr } = await runCli(['create', 'demo', '--yes', '--no-install', ...REGISTRY], cwd.path);
    assert.equal(code, 0);
    const insideRepo = spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: cwd.path }).status === 0;
    if (spawnSync('git', ['--version']).error) {
      assert.equal(stderr, 'trellis: warning: git was not found: skipped git init.\n');
    } else if (insideRepo) {
      assert.ok(stdout.includes('demo/ is inside a git repository already: skipped git init.'));
    } else {
      assert.ok(stdout.includes('Initialized a git repository in demo/.'));
      assert.ok(existsSync(join(cwd.path, 'demo', '.git')));
    }
  });

  it('lists the files and writes nothing with --dry-run', async () => {
    const before = treeHash(cwd.path);
    const { code, stdout } = await runCli(['create', 'demo', '--dry-run'], cwd.path);
    assert.equal(code, 0);
    assert.equal(lines(stdout).filter((line) => line.startsWith('  CREATE demo/')).length, 26);
    assert.equal(lines(stdout).at(-1), 'Dry run: demo/ would get these 26 files; nothing was written.');
    assert.equal(treeHash(cwd.path), before);
  });

  it('writes into a non-empty folder only with --force', async () => {
    mkdirSync(join(cwd.path, 'demo'));
    writeFileSync(join(cwd.path, 'demo', 'notes.txt'), 'keep me');
    const refused = await runCli(['create', 'demo', '--yes', '--no-git', '--no-install', ...REGISTRY], cwd.path);
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr,
      'trellis: demo/ exists and is not empty; choose another name, or use --force to write the project into it\n',
    );
    const forced = await runCli(['create', 'demo', '--yes', '--no-git', '--no-install', '--force', ...REGISTRY], cwd.path);
    assert.equal(forced.code, 0);
    assert.equal(readFileSync(join(cwd.path, 'demo', 'notes.txt'), 'utf8'), 'keep me');
    assert.ok(existsSync(join(cwd.path, 'demo', 'config.yaml')));
  });
});

describe('trellis create: npm install', () => {
  let cwd: ReturnType<typeof tempDir>;
  beforeEach(() => (cwd = tempDir()));
  afterEach(() => cwd.remove());

  it('installs after writing: a failure is one line with the retry command, exit 1, the project kept', async () => {
    writeFileSync(join(cwd.path, 'trellis.tgz'), 'not a tarball');
    writeFileSync(join(cwd.path, `trellis-cli-${defaultTrellisRange.slice(1)}.tgz`), 'not a tarball either');
    const { code, stdout, stderr } = await runCli(['create', 'demo', '--yes', '--no-git', '--trellis-spec', './trellis.tgz'], cwd.path);
    assert.equal(
      stderr,
      'trellis: npm install failed: TAR_BAD_ARCHIVE: Unrecognized archive format. ' +
        'The project is in demo/: fix the cause, then run `cd demo && npm install`\n',
    );
    assert.equal(code, 1);
    // Without a terminal the step is a plain line; no "Next:" after a failure.
    assert.deepEqual(lines(stdout).slice(-2), ['Created demo/ with 28 files.', 'Installing dependencies in demo/ (npm install)...']);
    const files = listFiles(join(cwd.path, 'demo'));
    for (const file of ['package.json', 'config.yaml', '.env', 'routers/tasks.ts']) assert.ok(files.includes(file), file);
    assert.equal(JSON.parse(readFileSync(join(cwd.path, 'demo', 'package.json'), 'utf8')).dependencies.trellis, 'file:vendor/trellis.tgz');
  });

  it('refuses a --trellis-spec path that does not exist before writing anything', async () => {
    const { code, stdout, stderr } = await runCli(['create', 'demo', '--yes', '--trellis-spec', './missing.tgz'], cwd.path);
    const missing = join(cwd.path, 'missing.tgz');
    assert.equal(stderr, `trellis: Invalid --trellis-spec "./missing.tgz": ${missing} does not exist; give a tarball or folder path, a version or a tag\n`);
    assert.deepEqual([code, stdout], [1, '']);
    assert.deepEqual(listFiles(cwd.path), []);
  });

  it('installs nothing with --dry-run', async () => {
    const { code, stdout } = await runCli(['create', 'demo', '--dry-run'], cwd.path);
    assert.equal(code, 0);
    assert.ok(!stdout.includes('Installing'));
    assert.deepEqual(listFiles(cwd.path), []);
  });
});

describe('trellis create: bad input is one line on stderr, exit 1, nothing written', { concurrency: true }, () => {
  const cases: Array<[string[], string]> = [
    [['create', '../x'], 'Invalid project name "../x": give a folder name, not a path'],
    [['create', '/abs'], 'Invalid project name "/abs": give a folder name, not a path'],
    [['create', 'a/b'], 'Invalid project name "a/b": give a folder name, not a path'],
    [['create', ''], 'Invalid project name "": the name is empty'],
    [['create', 'My App'], 'Invalid project name "My App": name can only contain URL-friendly characters'],
    [['create', 'Demo'], 'Invalid project name "Demo": name can no longer contain capital letters'],
    [['create'], "missing required argument 'name'"],
    [['create', 'demo', '--port', 'eighty'], 'The port must be an integer from 1 to 65535, got "eighty"'],
    [['create', 'demo', '--title', ' '], 'The title cannot be empty'],
    [['create', 'demo', '--examples', 'products,blog'], 'Unknown example "blog"; the examples are: tasks, products, users, upload, pages, admin'],
    [['create', 'demo', '--minimal', '--examples', 'users'], 'Use --minimal or --examples, not both'],
    [['create', 'demo', '--bogus'], "unknown option '--bogus'"],
    [['create', 'trellis'], 'Invalid project name "trellis": the project depends on the package trellis, so npm refuses that name'],
    [['create', 'demo', '--trellis-spec', ''], 'Invalid --trellis-spec "": it is empty; give a tarball or folder path, a version or a tag'],
    [['create', 'file'], 'file exists and is not a folder; choose another name'],
    [['create', 'full'], 'full/ exists and is not empty; choose another name, or use --force to write the project into it'],
  ];
  for (const [args, message] of cases) {
    it(JSON.stringify(args.slice(1)), async () => {
      const dir = tempDir();
      try {
        mkdirSync(join(dir.path, 'a'));
        mkdirSync(join(dir.path, 'full'));
        writeFileSync(join(dir.path, 'full', 'x'), 'x');
        writeFileSync(join(dir.path, 'file'), 'x');
        const before = treeHash(dir.path);
        const { code, stdout, stderr } = await runCli(args, dir.path);
        assert.equal(stderr, `trellis: ${message}\n`);
        assert.equal(stdout, '');
        assert.equal(code, 1);
        assert.equal(treeHash(dir.path), before);
      } finally {
        dir.remove();
      }
    });
  }
});
