// What `npm pack` ships, and the CLI as installed from it: compiled JavaScript only (it runs without
// @swc/core, which would be needed to load any TypeScript), one clear line when a command needs @swc/core.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { installInto, packedTrellis } from '../support/packed-trellis';
import { request, root, runNode, startNode } from './consumer-support';

const { version } = require(join(root, 'package.json')) as { version: string };
const work = mkdtempSync(join(tmpdir(), 'trellis-tarball-'));
const trellis = join(work, 'node_modules', '.bin', 'trellis');
let entries: string[];

before(async () => {
  const tarball = await packedTrellis();
  entries = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((entry) => entry.replace(/^package\//, ''));
  // A project as `trellis create` makes it: the compilers are its devDependencies.
  const { devDependencies } = require(join(root, 'package.json')) as { devDependencies: Record<string, string> };
  const project = {
    name: 'cli-user',
    private: true,
    dependencies: { trellis: `file:${tarball}` },
    devDependencies: { '@swc/core': devDependencies['@swc/core'], typescript: devDependencies.typescript },
  };
  writeFileSync(join(work, 'package.json'), JSON.stringify(project, null, 2));
  await installInto(work, ['--omit=dev']);
});

after(() => rmSync(work, { recursive: true, force: true }));

/** A project folder with one router of our own, for the commands that load a project. */
function project(name: string): string {
  const dir = join(work, name);
  mkdirSync(join(dir, 'routers'), { recursive: true });
  writeFileSync(join(dir, 'config.yaml'), 'app: { title: Installed CLI }\n');
  writeFileSync(
    join(dir, 'routers', 'hello.ts'),
    [
      "import { Get, router } from 'trellis';",
      "import { Path } from 'trellis/param';",
      '',
      "export class HelloRouter extends router('/hello') {",
      "  @Get('/{name}')",
      "  hello(@Path('name') name: string) {",
      '    return { hello: name };',
      '  }',
      '}',
      '',
    ].join('\n'),
  );
  return name;
}

describe('the npm pack tarball', () => {
  it('holds the compiled package: JS and .d.ts of every entry point, the CLI, the loader, the blueprints', () => {
    for (const file of [
      'package.json',
      'README.md',
      'bin/trellis.js',
      'register.js',
      'cli/loader/typescript.js',
      'cli/loader/compile-cache.js',
      'dist/cli/main.js',
      'dist/framework/index.js',
      'dist/framework/index.d.ts',
      'dist/framework/param.js',
      'dist/framework/param.d.ts',
      'dist/framework/testing.js',
      'dist/framework/testing.d.ts',
      'dist/framework/inspect.js',
      'dist/framework/inspect.d.ts',
      'dist/framework/express/index.js',
      'dist/framework/express/index.d.ts',
      'dist/vendor/redoc/bundles/redoc.standalone.js',
      'dist/vendor/swagger-ui-dist/swagger-ui-bundle.js',
    ]) {
      assert.ok(entries.includes(file), `${file} is in the tarball`);
    }
    for (const blueprint of ['project', 'router', 'service', 'middleware']) {
      assert.ok(entries.some((entry) => entry.startsWith(`blueprints/${blueprint}/`)), `the ${blueprint} blueprint is in the tarball`);
    }
  });

  it('holds no tests, fixtures, benchmark, e2e suite, tarball or TypeScript source of trellis', () => {
    // blueprints/ are the files of generated projects (their tests/ and .ts are what a project starts with).
    const own = entries.filter((entry) => !entry.startsWith('blueprints/'));
    assert.deepEqual(own.filter((entry) => /(^|\/)(tests?|fixtures|test-support|bench|e2e)\//.test(entry)), []);
    assert.deepEqual(entries.filter((entry) => entry.endsWith('.tgz')), []);
    assert.deepEqual(own.filter((entry) => /\.[cm]?ts$/.test(entry) && !/\.d\.[cm]?ts$/.test(entry)), []);
  });
});

describe('the installed CLI', () => {
  it('a production install (--omit=dev) leaves out the compilers: trellis does not pull them in', () => {
    assert.equal(existsSync(join(work, 'node_modules', 'trellis', 'package.json')), true);
    assert.equal(existsSync(join(work, 'node_modules', '@swc', 'core')), false);
    assert.equal(existsSync(join(work, 'node_modules', 'typescript')), false);
  });

  // Without @swc/core any TypeScript file would fail to load: these run on compiled JavaScript alone.
  it('answers --help and --version from compiled JavaScript', async () => {
    const help = await runNode([trellis, '--help'], work);
    assert.equal(help.code, 0, help.output);
    assert.match(help.output, /^Usage: trellis /m);
    assert.match(help.output, /^ {2}create /m);
    const printed = await runNode([trellis, '--version'], work);
    assert.deepEqual(printed, { code: 0, output: `trellis ${version}\n` });
  });

  it('adds a router to a project (generators and blueprints from the package)', async () => {
    const dir = project('generated');
    const added = await runNode([trellis, 'add', 'router', 'orders', '--yes', '--dir', dir], work);
    assert.equal(added.code, 0, added.output);
    assert.match(readFileSync(join(work, dir, 'routers', 'orders.ts'), 'utf8'), /class OrdersRouter extends router\('\/orders'\)/);
  });

  it('refuses run, test and doctor without @swc/core in one line naming the fix', async () => {
    const dir = project('no-compiler');
    for (const command of ['run', 'test', 'doctor']) {
      const result = await runNode([trellis, command, dir], work);
      assert.deepEqual(
        result,
        { code: 1, output: "trellis: @swc/core is not installed (it compiles the project's TypeScript): run `npm install -D @swc/core`\n" },
        command,
      );
    }
  });

  it('runs a project once the devDependencies are installed (trellis from the package, the project compiled)', async () => {
    await installInto(work);
    const app = await startNode([trellis, 'run', project('served'), '--host', '127.0.0.1', '--port', '0'], work);
    try {
      assert.deepEqual(await request(`${app.url}/hello/world`), { status: 200, body: { hello: 'world' } });
    } finally {
      await app.stop();
    }
  });
});
