import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createProject, GeneratorError } from '../index';
import { blueprintsDir, packageRoot } from '../paths';
import { createFixture } from '../test-support/create-fixture';
import { listFiles } from '../test-support/tree';

// A created project is a plain Node project: it holds no path of the machine that made it, so it can be
// moved, cloned or checked out in CI, and it declares everything its code imports.

const { cwd, request, read } = createFixture();
const dependencies = () => JSON.parse(read('package.json')).dependencies as Record<string, string>;
const devDependencies = () => JSON.parse(read('package.json')).devDependencies as Record<string, string>;

describe('create: no path of this machine in the project', () => {
  it('holds none of the temporary folder, the trellis checkout and the home folder, even with a local --trellis-spec', async () => {
    const tarball = join(cwd().path, 'packs', 'trellis-0.1.0-pre.1.tgz');
    mkdirSync(join(cwd().path, 'packs'));
    writeFileSync(tarball, 'a tarball');
    writeFileSync(join(cwd().path, 'packs', 'trellis-cli-0.1.0-pre.1.tgz'), 'a tarball');
    const root = (await createProject(request({ trellisSpec: tarball }))).root;
    const candidates = [cwd().path, realpathSync(cwd().path), tmpdir(), realpathSync(tmpdir()), packageRoot, homedir()];
    const machinePaths = new Set(candidates.filter((path) => path.length > 1)); // a HOME of `/` says nothing
    const files = listFiles(root);
    assert.equal(files.length, 28);
    for (const file of files) {
      const text = readFileSync(join(root, file), 'latin1');
      for (const path of machinePaths) assert.ok(!text.includes(path), `${file} holds ${path}`);
    }
    assert.equal(dependencies().trellis, 'file:vendor/trellis-0.1.0-pre.1.tgz');
  });
});

describe('create --trellis-spec', () => {
  it('depends on ^<version> of trellis and trellis-cli without it', async () => {
    await createProject(request());
    const own = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
    assert.equal(dependencies().trellis, `^${own.version}`);
    assert.equal(devDependencies()['trellis-cli'], `^${own.version}`);
  });

  it('copies a tarball, however it was given, into vendor/ with the trellis-cli tarball beside it', async () => {
    mkdirSync(join(cwd().path, 'packs'));
    writeFileSync(join(cwd().path, 'trellis.tgz'), 'trellis');
    writeFileSync(join(cwd().path, 'trellis-cli-0.1.0-pre.1.tgz'), 'trellis-cli');
    writeFileSync(join(cwd().path, 'packs', 'trellis-0.2.0.tgz'), 'trellis 0.2');
    writeFileSync(join(cwd().path, 'packs', 'trellis-cli-0.2.0.tgz'), 'trellis-cli 0.2');
    const cases: Array<[string, string, string]> = [
      ['./trellis.tgz', 'trellis.tgz', 'trellis-cli-0.1.0-pre.1.tgz'],
      ['trellis.tgz', 'trellis.tgz', 'trellis-cli-0.1.0-pre.1.tgz'],
      ['file:trellis.tgz', 'trellis.tgz', 'trellis-cli-0.1.0-pre.1.tgz'],
      [join(cwd().path, 'trellis.tgz'), 'trellis.tgz', 'trellis-cli-0.1.0-pre.1.tgz'],
      ['packs/trellis-0.2.0.tgz', 'trellis-0.2.0.tgz', 'trellis-cli-0.2.0.tgz'],
    ];
    for (const [index, [spec, trellis, cli]] of cases.entries()) {
      await createProject(request({ name: `p${index}`, trellisSpec: spec }));
      const project = join(cwd().path, `p${index}`);
      const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
      assert.deepEqual([pkg.dependencies.trellis, pkg.devDependencies['trellis-cli']], [`file:vendor/${trellis}`, `file:vendor/${cli}`], spec);
      assert.deepEqual(readdirSync(join(project, 'vendor')).sort(), [cli, trellis].sort(), spec);
      assert.equal(readFileSync(join(project, 'vendor', cli), 'utf8'), readFileSync(join(cwd().path, cli.includes('0.2') ? 'packs' : '.', cli), 'utf8'));
    }
  });

  it('writes a local folder relative to the project, trellis-cli from the registry', async () => {
    mkdirSync(join(cwd().path, 'vendor', 'trellis'), { recursive: true });
    const cases: Array<[string, string]> = [
      [`file:${join(cwd().path, 'vendor', 'trellis')}`, 'file:../vendor/trellis'],
      ['./vendor/trellis', 'file:../vendor/trellis'],
      ['.', 'file:..'],
    ];
    for (const [index, [spec, written]] of cases.entries()) {
      await createProject(request({ name: `p${index}`, trellisSpec: spec }));
      const pkg = JSON.parse(readFileSync(join(cwd().path, `p${index}`, 'package.json'), 'utf8'));
      assert.deepEqual([pkg.dependencies.trellis, pkg.devDependencies['trellis-cli']], [written, '^0.1.0-pre.1'], spec);
    }
  });

  it('keeps a registry or git spec as given: a version, a range or a tag for trellis-cli too', async () => {
    const cases: Array<[string, string]> = [
      ['0.2.0', '0.2.0'],
      ['next', 'next'],
      ['^0.1.0', '^0.1.0'],
      ['github:acme/trellis#v1', '^0.1.0-pre.1'],
      ['https://example.com/trellis.tgz', '^0.1.0-pre.1'],
    ];
    for (const [index, [spec, cli]] of cases.entries()) {
      await createProject(request({ name: `p${index}`, trellisSpec: spec }));
      const pkg = JSON.parse(readFileSync(join(cwd().path, `p${index}`, 'package.json'), 'utf8'));
      assert.deepEqual([pkg.dependencies.trellis, pkg.devDependencies['trellis-cli']], [spec, cli], spec);
    }
  });

  it('refuses an empty spec, a local path that does not exist and a tarball without trellis-cli\'s, writing nothing', async () => {
    writeFileSync(join(cwd().path, 'alone.tgz'), 'a tarball');
    for (const [spec, detail] of [
      [' ', 'it is empty'],
      ['./missing.tgz', `${join(cwd().path, 'missing.tgz')} does not exist`],
      ['file:../nowhere', `${join(cwd().path, '..', 'nowhere')} does not exist`],
      ['./alone.tgz', `${join(cwd().path, 'trellis-cli-0.1.0-pre.1.tgz')} is not beside it (\`npm run pack\` writes both)`],
    ]) {
      await assert.rejects(createProject(request({ trellisSpec: spec })), (error: GeneratorError) => {
        return error.reason === 'invalid-trellis-spec' && error.subject === spec && error.detail === detail;
      });
    }
    assert.deepEqual(readdirSync(cwd().path), ['alone.tgz']);
  });

  it('refuses to name the project like a package it depends on', async () => {
    for (const name of ['trellis', 'class-validator', 'class-transformer', 'reflect-metadata']) {
      await assert.rejects(createProject(request({ name })), (error: GeneratorError) => error.reason === 'invalid-project-name');
    }
  });
});

describe('create: every package the code imports is a dependency', () => {
  /** The packages the TypeScript files of the blueprint folders import (bare specifiers, by package). */
  function importedBy(blueprints: (name: string) => boolean): string[] {
    const imported = new Set<string>();
    for (const blueprint of readdirSync(blueprintsDir, { withFileTypes: true }).filter((e) => e.isDirectory() && blueprints(e.name))) {
      const dir = join(blueprintsDir, blueprint.name);
      for (const file of listFiles(dir).filter((f) => /\.ts(\.hbs)?$/.test(f))) {
        for (const [, spec] of readFileSync(join(dir, file), 'utf8').matchAll(/(?:from|import)\s+'([^']+)'/g)) {
          if (spec.startsWith('.') || spec.startsWith('node:')) continue;
          imported.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
        }
      }
    }
    return [...imported].sort();
  }

  it('covers each bare import of every blueprint (project, router, service, middleware, resource)', async () => {
    await createProject(request());
    const imported = importedBy((name) => !name.endsWith('-db'));
    assert.deepEqual(imported, ['class-validator', 'trellis']);
    for (const name of imported) assert.ok(name in dependencies(), name);
  });

  it('covers each bare import of the database overlays (project-db, resource-db) in a --db project', async () => {
    await createProject(request({ db: true }));
    const imported = importedBy((name) => name.endsWith('-db'));
    assert.deepEqual(imported, ['kysely', 'trellis', 'typescript']);
    // typescript: only tests/schema.test.ts reads db/schema.ts with it (a test, run in development).
    for (const name of imported) assert.ok(name in (name === 'typescript' ? devDependencies() : dependencies()), name);
  });
});
