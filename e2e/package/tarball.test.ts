// What `npm run pack` ships, the two packages: trellis (the framework and the production runtime) and
// trellis-cli (the command-line tool), and the CLI as installed from them: compiled JavaScript only (it runs
// without @swc/core, which would be needed to load any TypeScript), one clear line when a command needs @swc/core.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { installInto, packedTarballs } from '../support/packed-trellis';
import { request, root, runNode, startNode } from './consumer-support';

const { version } = require(join(root, 'package.json')) as { version: string };
/** The packages only the command-line tool imports: never in a production install of trellis. */
const CLI_ONLY = ['@apidevtools/swagger-parser', '@inquirer/prompts', 'node-plop', 'ora', 'validate-npm-package-name'];
const work = mkdtempSync(join(tmpdir(), 'trellis-tarball-'));
const trellis = join(work, 'node_modules', '.bin', 'trellis');
const entries: Record<'trellis' | 'cli', string[]> = { trellis: [], cli: [] };
const manifests: Record<'trellis' | 'cli', Manifest> = {} as Record<'trellis' | 'cli', Manifest>;

interface Manifest {
  name: string;
  version: string;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

before(async () => {
  const tarballs = await packedTarballs();
  for (const which of ['trellis', 'cli'] as const) {
    entries[which] = execFileSync('tar', ['-tzf', tarballs[which]], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((entry) => entry.replace(/^package\//, ''));
    manifests[which] = JSON.parse(execFileSync('tar', ['-xzOf', tarballs[which], 'package/package.json'], { encoding: 'utf8' })) as Manifest;
  }
  // Both packages as dependencies and the compilers as devDependencies: `--omit=dev` gives the CLI without them.
  const { devDependencies } = require(join(root, 'package.json')) as { devDependencies: Record<string, string> };
  const project = {
    name: 'cli-user',
    private: true,
    dependencies: { trellis: `file:${tarballs.trellis}`, 'trellis-cli': `file:${tarballs.cli}` },
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

describe('the tarballs of `npm run pack`', () => {
  it('trellis holds the framework and the runtime: JS and .d.ts of every entry point, the docs assets, the runtime bundle', () => {
    for (const file of [
      'package.json',
      'README.md',
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
      'dist/framework/security.js',
      'dist/framework/security.d.ts',
      'dist/framework/plugins.js',
      'dist/framework/plugins.d.ts',
      'dist/framework/auth.js',
      'dist/framework/auth.d.ts',
      'dist/runtime/index.js',
      'dist/runtime/index.d.ts',
      'dist/runtime/internal.js',
      'dist/runtime/internal.d.ts',
      'dist/vendor/redoc/bundles/redoc.standalone.js',
      'dist/vendor/swagger-ui-dist/swagger-ui-bundle.js',
      'dist/trellis.runtime.js',
    ]) {
      assert.ok(entries.trellis.includes(file), `${file} is in the trellis tarball`);
    }
  });

  it('trellis has no command-line tool: no bin, CLI, generators, blueprints, loader, nor a dependency only they use', () => {
    assert.equal(manifests.trellis.name, 'trellis');
    assert.equal(manifests.trellis.bin, undefined);
    assert.deepEqual(entries.trellis.filter((entry) => /^(bin|blueprints|cli|dist\/cli|dist\/generators)\/|^register\.js$/.test(entry)), []);
    for (const name of [...CLI_ONLY, 'commander']) assert.equal(manifests.trellis.dependencies?.[name], undefined, name);
  });

  it('trellis-cli holds the CLI, the loader, the generators and the blueprints, and uses the project\'s trellis (a peer)', () => {
    for (const file of ['package.json', 'README.md', 'bin/trellis.js', 'register.js', 'cli/loader/typescript.js', 'cli/loader/compile-cache.js', 'cli/loader/aliases.js', 'dist/cli/main.js', 'dist/generators/index.js']) {
      assert.ok(entries.cli.includes(file), `${file} is in the trellis-cli tarball`);
    }
    for (const blueprint of ['project', 'router', 'service', 'middleware']) {
      assert.ok(entries.cli.some((entry) => entry.startsWith(`blueprints/${blueprint}/`)), `the ${blueprint} blueprint is in the trellis-cli tarball`);
    }
    assert.deepEqual(entries.cli.filter((entry) => /^dist\/(framework|runtime|vendor)\//.test(entry)), []);
    assert.deepEqual([manifests.cli.name, manifests.cli.version, manifests.cli.bin], ['trellis-cli', version, { trellis: 'bin/trellis.js' }]);
    // openapi-typescript (trellis client) is an optional peer: its own peer, typescript, stays out of a production install.
    assert.deepEqual(manifests.cli.peerDependencies, { trellis: `^${version}`, 'openapi-typescript': '~7.13.0' });
    assert.deepEqual(manifests.cli.peerDependenciesMeta, { 'openapi-typescript': { optional: true } });
    for (const name of [...CLI_ONLY, 'commander']) assert.ok(manifests.cli.dependencies?.[name], name);
  });

  it('hold no tests, fixtures, benchmark, e2e suite, tarball or TypeScript source of trellis', () => {
    for (const which of ['trellis', 'cli'] as const) {
      // blueprints/ are the files of generated projects (their tests/ and .ts are what a project starts with).
      const own = entries[which].filter((entry) => !entry.startsWith('blueprints/'));
      assert.deepEqual(own.filter((entry) => /(^|\/)(tests?|fixtures|test-support|bench|e2e)\//.test(entry)), [], which);
      assert.deepEqual(entries[which].filter((entry) => entry.endsWith('.tgz')), [], which);
      assert.deepEqual(own.filter((entry) => /\.[cm]?ts$/.test(entry) && !/\.d\.[cm]?ts$/.test(entry)), [], which);
    }
  });
});

describe('the installed CLI', () => {
  it('a production install (--omit=dev) leaves out the compilers: neither package pulls them in', () => {
    assert.equal(existsSync(join(work, 'node_modules', 'trellis', 'package.json')), true);
    assert.equal(existsSync(join(work, 'node_modules', 'trellis-cli', 'package.json')), true);
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

  it('creates a project depending on the registry\'s trellis and trellis-cli: an installed CLI packs nothing', async () => {
    const created = await runNode([trellis, 'create', 'registered', '--yes', '--no-git', '--no-install'], work);
    assert.equal(created.code, 0, created.output);
    assert.doesNotMatch(created.output, /registry install|vendor/);
    const pkg = JSON.parse(readFileSync(join(work, 'registered', 'package.json'), 'utf8'));
    assert.deepEqual([pkg.dependencies.trellis, pkg.devDependencies['trellis-cli']], [`^${version}`, `^${version}`]);
    assert.equal(existsSync(join(work, 'registered', 'vendor')), false);
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

  it('refuses client without openapi-typescript (an optional peer of trellis-cli) in one line naming the fix', async () => {
    const result = await runNode([trellis, 'client', project('no-generator')], work);
    assert.deepEqual(result, {
      code: 1,
      output: "trellis: openapi-typescript is not installed (it writes the client's types): run `npm install -D openapi-typescript@7.13.0`\n",
    });
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
