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

describe('create: no path of this machine in the project', () => {
  it('holds none of the temporary folder, the trellis checkout and the home folder, even with a local --trellis-spec', async () => {
    const tarball = join(cwd().path, 'packs', 'trellis-0.1.0-pre.1.tgz');
    mkdirSync(join(cwd().path, 'packs'));
    writeFileSync(tarball, 'a tarball');
    const root = (await createProject(request({ trellisSpec: tarball }))).root;
    const candidates = [cwd().path, realpathSync(cwd().path), tmpdir(), realpathSync(tmpdir()), packageRoot, homedir()];
    const machinePaths = new Set(candidates.filter((path) => path.length > 1)); // a HOME of `/` says nothing
    const files = listFiles(root);
    assert.equal(files.length, 23);
    for (const file of files) {
      const text = readFileSync(join(root, file), 'latin1');
      for (const path of machinePaths) assert.ok(!text.includes(path), `${file} holds ${path}`);
    }
    assert.equal(dependencies().trellis, 'file:../packs/trellis-0.1.0-pre.1.tgz');
  });
});

describe('create --trellis-spec', () => {
  it('depends on ^<trellis version> without it', async () => {
    await createProject(request());
    const own = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
    assert.equal(dependencies().trellis, `^${own.version}`);
  });

  it('writes a local tarball or folder relative to the project, however it was given', async () => {
    mkdirSync(join(cwd().path, 'vendor', 'trellis'), { recursive: true });
    writeFileSync(join(cwd().path, 'trellis.tgz'), 'a tarball');
    const cases: Array<[string, string]> = [
      ['./trellis.tgz', 'file:../trellis.tgz'],
      ['trellis.tgz', 'file:../trellis.tgz'],
      ['file:trellis.tgz', 'file:../trellis.tgz'],
      [join(cwd().path, 'trellis.tgz'), 'file:../trellis.tgz'],
      [`file:${join(cwd().path, 'vendor', 'trellis')}`, 'file:../vendor/trellis'],
      ['./vendor/trellis', 'file:../vendor/trellis'],
      ['.', 'file:..'],
    ];
    for (const [spec, written] of cases) {
      const name = `p${cases.findIndex(([s]) => s === spec)}`;
      await createProject(request({ name, trellisSpec: spec }));
      assert.equal(JSON.parse(readFileSync(join(cwd().path, name, 'package.json'), 'utf8')).dependencies.trellis, written, spec);
    }
  });

  it('keeps a registry or git spec as given', async () => {
    for (const [index, spec] of ['0.2.0', 'next', '^0.1.0', 'github:acme/trellis#v1', 'https://example.com/trellis.tgz'].entries()) {
      await createProject(request({ name: `p${index}`, trellisSpec: spec }));
      assert.equal(JSON.parse(readFileSync(join(cwd().path, `p${index}`, 'package.json'), 'utf8')).dependencies.trellis, spec);
    }
  });

  it('refuses an empty spec and a local path that does not exist, writing nothing', async () => {
    for (const [spec, detail] of [
      [' ', 'it is empty'],
      ['./missing.tgz', `${join(cwd().path, 'missing.tgz')} does not exist`],
      ['file:../nowhere', `${join(cwd().path, '..', 'nowhere')} does not exist`],
    ]) {
      await assert.rejects(createProject(request({ trellisSpec: spec })), (error: GeneratorError) => {
        return error.reason === 'invalid-trellis-spec' && error.subject === spec && error.detail === detail;
      });
    }
    assert.deepEqual(readdirSync(cwd().path), []);
  });

  it('refuses to name the project like a package it depends on', async () => {
    for (const name of ['trellis', 'class-validator', 'class-transformer', 'reflect-metadata']) {
      await assert.rejects(createProject(request({ name })), (error: GeneratorError) => error.reason === 'invalid-project-name');
    }
  });
});

describe('create: every package the code imports is a dependency', () => {
  it('covers each bare import of every blueprint (project, router, service, middleware)', async () => {
    await createProject(request());
    const imported = new Set<string>();
    for (const blueprint of readdirSync(blueprintsDir, { withFileTypes: true }).filter((e) => e.isDirectory())) {
      const dir = join(blueprintsDir, blueprint.name);
      for (const file of listFiles(dir).filter((f) => /\.ts(\.hbs)?$/.test(f))) {
        for (const [, spec] of readFileSync(join(dir, file), 'utf8').matchAll(/(?:from|import)\s+'([^']+)'/g)) {
          if (spec.startsWith('.') || spec.startsWith('node:')) continue;
          imported.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
        }
      }
    }
    assert.deepEqual([...imported].sort(), ['class-validator', 'trellis']);
    for (const name of imported) assert.ok(name in dependencies(), name);
  });
});
