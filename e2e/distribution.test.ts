import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { packedTrellis } from './support/packed-trellis';
import { mustRun, runCommand, startServing, type Serving } from './support/project-process';

// The path of a new user, in real processes: the packed tarball, `trellis create` installing from it, the
// project's own scripts, a production build moved to another folder and started with `npm start`.

const ROOT = join(__dirname, '..');
const CLI = join(ROOT, 'bin', 'trellis.js');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const work = mkdtempSync(join(tmpdir(), 'trellis-distribution-'));
const servers: Serving[] = [];
let project = join(work, 'shop');

before(async () => {
  const tarball = await packedTrellis();
  await mustRun([process.execPath, CLI, 'create', 'shop', '--yes', '--no-git', '--trellis-spec', tarball], { cwd: work, timeoutMs: 300_000 });
});
after(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
  rmSync(work, { recursive: true, force: true });
});

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('a project made from the package', { timeout: 600_000 }, () => {
  it('is installed by create and passes its own typecheck and tests', async () => {
    assert.ok(existsSync(join(project, 'node_modules', 'trellis', 'package.json')));
    assert.ok(existsSync(join(project, 'package-lock.json')));
    await mustRun([NPM, 'run', 'typecheck'], { cwd: project });
    await mustRun(['npx', '--no-install', 'tsc', '--noEmit'], { cwd: project });
    const tests = await mustRun([NPM, 'test'], { cwd: project, env: { ADMIN_TOKEN: 'test-token' }, timeoutMs: 180_000 });
    assert.match(tests, /# fail 0/);
  });

  it('serves with `npx trellis run` from the runtime bundle the package ships, and writes its code cache on exit', async () => {
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

  it('builds into dist/ and, moved to another folder, serves with npm start: PORT and ${ADMIN_TOKEN} from the environment', async () => {
    await mustRun([NPM, 'run', 'build'], { cwd: project, timeoutMs: 180_000 });
    assert.ok(existsSync(join(project, 'dist', 'main.js')));
    const moved = join(work, 'elsewhere', 'shop');
    await mustRun(['mkdir', '-p', join(work, 'elsewhere')], { cwd: work });
    renameSync(project, moved);
    project = moved;

    const server = await startServing([NPM, 'start'], { cwd: moved, group: true, timeoutMs: 60_000, env: { PORT: '0', HOST: '127.0.0.1', ADMIN_TOKEN: 'prod-token' } });
    servers.push(server);
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal((await fetch(`${server.url}/tasks`)).status, 200);
    const created = await post(`${server.url}/tasks`, { title: 'ship it' });
    assert.equal(created.status, 201);
    const invalid = await post(`${server.url}/tasks`, { title: 5 });
    assert.equal(invalid.status, 422);
    assert.equal((await fetch(`${server.url}/admin/stats`, { headers: { authorization: 'Bearer prod-token' } })).status, 200);
    assert.equal((await fetch(`${server.url}/admin/stats`, { headers: { authorization: 'Bearer wrong' } })).status, 401);
    const docs = (await (await fetch(`${server.url}/docs/openapi.json`)).json()) as { paths: Record<string, unknown> };
    assert.ok(docs.paths['/tasks']);
    // SIGTERM reaches npm and the server (one process group, as a container's stop does): the server stops
    // gracefully; npm's own exit status is the signal's.
    await server.stop('SIGTERM');
    assert.match(server.output(), /^Stopped\.$/m);
  });

  it('refuses to start in one line when ADMIN_TOKEN is not set, and has no path of the machine that made it', async () => {
    const { ADMIN_TOKEN: _, ...env } = process.env;
    const started = await runCommand([process.execPath, 'dist/main.js'], { cwd: project, env: { ...env, ADMIN_TOKEN: undefined, PORT: '0' }, timeoutMs: 30_000 });
    assert.equal(started.code, 1);
    assert.match(started.output, /config\.yaml:\d+: ADMIN_TOKEN is not set/);

    // The trellis dependency names the tarball this test gave (`--trellis-spec`); nothing else may name a path here.
    const leaks = [work, ROOT, tmpdir()];
    const files = readdirSync(project, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .filter((path) => !path.includes(`${sep}node_modules${sep}`) && !path.endsWith('package-lock.json'));
    assert.ok(files.some((path) => path.endsWith(join('dist', 'main.js'))));
    for (const path of files) {
      let text = readFileSync(path, 'utf8');
      if (path === join(project, 'package.json')) {
        const pkg = JSON.parse(text);
        delete pkg.dependencies.trellis;
        text = JSON.stringify(pkg);
      }
      for (const leak of leaks) assert.ok(!text.includes(leak), `${path} holds ${leak}`);
    }
  });
});
