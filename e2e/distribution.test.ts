import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { packedTarballs, type Tarballs } from './support/packed-trellis';
import { mustRun, runCommand, startServing, type Serving } from './support/project-process';

// The path of a new user, in real processes: the two packed tarballs (trellis, trellis-cli), `trellis create`
// copying them into the project and installing from there, the project's own scripts, its production install
// (none of the command-line tool's packages), and a copy of the project, built, installed and started elsewhere
// as a server would be. Then `trellis create` and `npm start` from a checkout, with no tarball given.

const ROOT = join(__dirname, '..');
const CLI = join(ROOT, 'bin', 'trellis.js');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const { version } = require(join(ROOT, 'package.json')) as { version: string };
/** The packages only the command-line tool uses (commander is also nunjucks's, at another major: checked apart). */
const CLI_ONLY = ['trellis-cli', 'node-plop', '@inquirer/prompts', '@inquirer/core', 'inquirer', 'ora', 'handlebars', 'rxjs', '@apidevtools/swagger-parser', 'validate-npm-package-name', 'openapi-typescript'];
const CLI_COMMANDER = (require(join(ROOT, 'cli', 'package.json')) as { dependencies: Record<string, string> }).dependencies.commander;
const work = mkdtempSync(join(tmpdir(), 'trellis-distribution-'));
const servers: Serving[] = [];
const project = join(work, 'shop');
/** The environment without ADMIN_TOKEN: the sample's config.yaml reads it, from .env in development. */
const NO_TOKEN = { ADMIN_TOKEN: undefined };
let tarballs: Tarballs;

before(async () => {
  tarballs = await packedTarballs();
  await mustRun([process.execPath, CLI, 'create', 'shop', '--yes', '--no-git', '--trellis-spec', tarballs.trellis], { cwd: work, timeoutMs: 300_000 });
});
after(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
  rmSync(work, { recursive: true, force: true });
});

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const manifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;

/** The top-level packages of an install, how many packages it holds in all (`npm ls`), and `du -sm node_modules`. */
async function installed(dir: string): Promise<{ names: string[]; count: number; mb: string }> {
  const modules = join(dir, 'node_modules');
  const names = readdirSync(modules)
    .filter((entry) => !entry.startsWith('.'))
    .flatMap((entry) => (entry.startsWith('@') ? readdirSync(join(modules, entry)).map((scoped) => `${entry}/${scoped}`) : [entry]));
  const listed = await mustRun([NPM, 'ls', '--omit=dev', '--all', '--parseable'], { cwd: dir });
  const du = await runCommand(['du', '-sm', 'node_modules'], { cwd: dir });
  return { names, count: listed.split('\n').filter(Boolean).length - 1, mb: du.code === 0 ? du.output.split('\t')[0] : '?' };
}

describe('a project made from the packages', { timeout: 600_000 }, () => {
  it('depends on trellis and, for development, trellis-cli: both tarballs copied inside it', () => {
    const pkg = manifest(project);
    assert.equal(pkg.dependencies.trellis, `file:vendor/trellis-${version}.tgz`);
    assert.equal(pkg.devDependencies['trellis-cli'], `file:vendor/trellis-cli-${version}.tgz`);
    assert.equal(pkg.dependencies['trellis-cli'], undefined);
    for (const file of [`trellis-${version}.tgz`, `trellis-cli-${version}.tgz`]) {
      assert.deepEqual(readFileSync(join(project, 'vendor', file)), readFileSync(join(tarballs.dir, file)), file);
    }
    assert.ok(existsSync(join(project, 'node_modules', 'trellis', 'package.json')));
    assert.ok(existsSync(join(project, 'node_modules', 'trellis-cli', 'package.json')));
    assert.ok(existsSync(join(project, 'package-lock.json')));
  });

  it('passes its own typecheck and tests', async () => {
    await mustRun([NPM, 'run', 'typecheck'], { cwd: project });
    await mustRun(['npx', '--no-install', 'tsc', '--noEmit'], { cwd: project });
    const tests = await mustRun([NPM, 'test'], { cwd: project, env: { ADMIN_TOKEN: 'test-token' }, timeoutMs: 180_000 });
    assert.match(tests, /# fail 0/);
  });

  it('serves with its own `npm run dev`, ADMIN_TOKEN read from the .env create wrote (nothing exported)', async () => {
    const token = /^ADMIN_TOKEN=(.+)$/m.exec(readFileSync(join(project, '.env'), 'utf8'))![1];
    const server = await startServing([NPM, 'run', 'dev', '--', '--host', '127.0.0.1', '--port', '0'], { cwd: project, group: true, timeoutMs: 90_000, env: NO_TOKEN });
    servers.push(server);
    assert.equal((await fetch(`${server.url}/tasks`)).status, 200);
    assert.equal((await fetch(`${server.url}/admin/stats`, { headers: { authorization: `Bearer ${token}` } })).status, 200);
    await server.stop('SIGTERM');
  });

  it('serves with `npx trellis run` from the runtime bundle trellis ships, and writes its code cache on exit', async () => {
    const cacheDir = join(work, 'trellis-cache');
    const server = await startServing(['npx', '--no-install', 'trellis', 'run', '.', '--host', '127.0.0.1', '--port', '0'], {
      cwd: project,
      group: true,
      timeoutMs: 60_000,
      env: { ADMIN_TOKEN: 'dev-token', TRELLIS_CACHE_DIR: cacheDir },
    });
    servers.push(server);
    assert.equal((await fetch(`${server.url}/tasks`)).status, 200);
    assert.equal((await post(`${server.url}/tasks`, { title: 5 })).status, 422);
    assert.equal((await fetch(`${server.url}/docs/assets/swagger-ui.css`)).status, 200);
    await server.stop('SIGTERM');
    assert.match(server.output(), /^Stopped\.$/m);
    assert.ok(existsSync(join(project, 'node_modules', 'trellis', 'dist', 'trellis.runtime.js')));
    assert.equal(readdirSync(cacheDir).filter((name) => name.startsWith('runtime-') && name.endsWith('.v8cache')).length, 1);
  });

  it('builds, and a copy of the folder (no node_modules, the original gone) installs with `npm ci --omit=dev`: no package of the CLI, and npm start serves', async (t) => {
    await mustRun([NPM, 'run', 'build'], { cwd: project, timeoutMs: 180_000 });
    assert.ok(existsSync(join(project, 'dist', 'main.js')));
    // What a deploy ships: the folder as it is in git (vendor/ included) with the build, without node_modules.
    const server = join(work, 'server', 'shop');
    cpSync(project, server, { recursive: true, filter: (source) => !source.split(sep).includes('node_modules') });
    rmSync(project, { recursive: true, force: true });
    await mustRun([NPM, 'ci', '--omit=dev', '--no-audit', '--no-fund'], { cwd: server, timeoutMs: 300_000 });

    const { names, count, mb } = await installed(server);
    t.diagnostic(`production install: ${count} packages, ${mb} MB`);
    assert.ok(names.includes('trellis'));
    assert.deepEqual(names.filter((name) => CLI_ONLY.includes(name)), []);
    for (const tool of ['@swc/core', 'typescript', 'esbuild', 'ts-json-schema-generator']) assert.ok(!names.includes(tool), tool);
    // nunjucks (trellis's templates) brings a commander of its own; the CLI's is not there.
    if (names.includes('commander')) assert.notEqual((manifest(join(server, 'node_modules', 'commander')) as unknown as { version: string }).version, CLI_COMMANDER);

    const started = await startServing([NPM, 'start'], { cwd: server, group: true, timeoutMs: 60_000, env: { PORT: '0', HOST: '127.0.0.1', ADMIN_TOKEN: 'prod-token' } });
    servers.push(started);
    assert.match(started.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal((await fetch(`${started.url}/tasks`)).status, 200);
    assert.equal((await post(`${started.url}/tasks`, { title: 'ship it' })).status, 201);
    assert.equal((await post(`${started.url}/tasks`, { title: 5 })).status, 422);
    assert.equal((await fetch(`${started.url}/admin/stats`, { headers: { authorization: 'Bearer prod-token' } })).status, 200);
    assert.equal((await fetch(`${started.url}/admin/stats`, { headers: { authorization: 'Bearer wrong' } })).status, 401);
    const docs = (await (await fetch(`${started.url}/docs/openapi.json`)).json()) as { paths: Record<string, unknown> };
    assert.ok(docs.paths['/tasks']);
    // SIGTERM reaches npm and the server (one process group, as a container's stop does): the server stops
    // gracefully; npm's own exit status is the signal's.
    await started.stop('SIGTERM');
    assert.match(started.output(), /^Stopped\.$/m);
  });

  it('refuses to start in one line when ADMIN_TOKEN is not set, and has no path of the machine that made it', async () => {
    const server = join(work, 'server', 'shop');
    const started = await runCommand([process.execPath, 'dist/main.js'], { cwd: server, env: { ...NO_TOKEN, PORT: '0' }, timeoutMs: 30_000 });
    assert.equal(started.code, 1);
    assert.match(started.output, /config\.yaml:\d+: ADMIN_TOKEN is not set/);

    const leaks = [work, ROOT, tmpdir()];
    const files = readdirSync(server, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !entry.name.endsWith('.tgz'))
      .map((entry) => join(entry.parentPath, entry.name))
      .filter((path) => !path.includes(`${sep}node_modules${sep}`));
    assert.ok(files.some((path) => path.endsWith(join('dist', 'main.js'))));
    assert.ok(files.some((path) => path.endsWith('package-lock.json')));
    for (const path of files) {
      const text = readFileSync(path, 'utf8');
      for (const leak of leaks) assert.ok(!text.includes(leak), `${path} holds ${leak}`);
    }
  });
});

describe('from a checkout, with no tarball given', { timeout: 600_000 }, () => {
  it('`trellis create` says it packs the checkout, in one line, and the project depends on the tarballs in its vendor/', async () => {
    const dir = join(work, 'from-checkout');
    mkdirSync(dir);
    const output = await mustRun([process.execPath, CLI, 'create', 'demo', '--yes', '--no-git', '--no-install'], { cwd: dir, timeoutMs: 300_000 });
    const said = output.split('\n').filter((line) => line.includes('registry'));
    assert.deepEqual(said, [`Not a registry install: packing trellis and trellis-cli from ${ROOT} (npm run pack) into demo/vendor/.`]);
    const pkg = manifest(join(dir, 'demo'));
    assert.equal(pkg.dependencies.trellis, `file:vendor/trellis-${version}.tgz`);
    assert.equal(pkg.devDependencies['trellis-cli'], `file:vendor/trellis-cli-${version}.tgz`);
    // (packed again if the sources changed since this file's own pack: compared by name, not content)
    assert.deepEqual(readdirSync(join(dir, 'demo', 'vendor')).sort(), [`trellis-${version}.tgz`, `trellis-cli-${version}.tgz`].sort());
  });

  it("the repository's `npm start` (scripts/demo.js) creates the demo and serves it, nothing exported", async () => {
    // A clone of this checkout (its sources as they are now, this node_modules), so the test's demo/ is its own.
    const clone = join(work, 'clone');
    for (const entry of ['bin', 'blueprints', 'cli', 'framework', 'generators', 'runtime', 'scripts', 'register.js', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'README.md']) {
      cpSync(join(ROOT, entry), join(clone, entry), { recursive: true });
    }
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
    const server = await startServing([NPM, 'start', '--', '--host', '127.0.0.1', '--port', '0'], { cwd: clone, group: true, timeoutMs: 300_000, env: NO_TOKEN });
    servers.push(server);
    assert.match(server.output(), /Not a registry install: packing trellis and trellis-cli from .*clone/);
    assert.equal((await fetch(`${server.url}/tasks`)).status, 200);
    assert.equal(manifest(join(clone, 'demo')).dependencies.trellis, `file:vendor/trellis-${version}.tgz`);
    await server.stop('SIGTERM');
  });
});
