import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { createProject, projectDefaults, resolveExamples } from '../../generators';
import { http, listenOn, ROOT, runCli, Running } from './run-support';
import { linkDependencies, sampleAnswers, stageTrellis } from './staged-trellis';

const TOKEN = 'build-test-token';
// PORT for a trellis that reads it; config.yaml's port is set to 0 as well.
const ENV = { ADMIN_TOKEN: TOKEN, PORT: '0', TRELLIS_SHUTDOWN_GRACE_MS: '2000' };
const BUILT_BANNER_END = /  Middleware: .+\n/;

let work: string;
let app: string;
const running: Running[] = [];

function start(args: string[], cwd: string, command?: string[]): Running {
  const run = new Running(args, cwd, ENV, command);
  running.push(run);
  return run;
}

async function stop(run: Running): Promise<void> {
  run.kill('SIGTERM');
  assert.deepEqual(await run.exited, { code: 0, signal: null }, run.stderr);
}

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'trellis-build-test-'));
  await stageTrellis(join(work, 'trellis'));
  const examples = resolveExamples(projectDefaults('app').examples);
  ({ root: app } = await createProject({
    cwd: work,
    name: 'app',
    title: 'Build Test API',
    description: 'Built by the test.',
    port: 8000,
    examples,
    adminToken: TOKEN,
  }));
  const config = join(app, 'config.yaml');
  writeFileSync(config, readFileSync(config, 'utf8').replace(/\bport: \d+/, 'port: 0'));
  linkDependencies(app, join(work, 'trellis'));
});

after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  rmSync(work, { recursive: true, force: true });
});

describe('trellis build', () => {
  it('compiles the project into dist/ with its config, assets, manifest and main.js', async () => {
    const result = await runCli(['build', 'app'], { cwd: work, timeoutMs: 60_000 });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Built app\/dist\/: 7 routers, 1 WebSocket gateway, 3 services, 2 middleware, 14 compiled files\.\n/);
    const dist = join(app, 'dist');
    for (const file of ['main.js', 'trellis.bundle.js', 'trellis.bundle.cache', 'trellis.manifest.json', 'config.yaml', 'favicon.ico', 'static/style.css', 'templates/index.html', 'routers/tasks.js']) {
      assert.ok(existsSync(join(dist, file)), file);
    }
    // All ASCII (validator.js's locale alphabets escaped): read into a one-byte string.
    assert.match(readFileSync(join(dist, 'trellis.bundle.js'), 'latin1'), /^[\x00-\x7f]*$/);
    const files = readdirSync(dist, { recursive: true }).map(String);
    assert.deepEqual(files.filter((file) => file.endsWith('.ts')), []);
    const manifest = JSON.parse(readFileSync(join(dist, 'trellis.manifest.json'), 'utf8'));
    assert.deepEqual(manifest.routers.find((m: { file: string }) => m.file === 'routers/tasks.js'), { file: 'routers/tasks.js', classes: ['TaskRouter'] });
    // The gateway's file is loaded with the routers; its class is taken by the name it is exported under.
    assert.deepEqual(manifest.gateways, [{ file: 'routers/task_feed.js', classes: ['TaskFeed'] }]);
    assert.deepEqual(manifest.middleware.map((m: { name: string; main: string }) => [m.name, m.main]), [['require_token', 'RequireToken'], ['timing', 'Timing']]);
    const taskRouter = manifest.docComments['routers/tasks.js'].find((c: { name: string }) => c.name === 'TaskRouter');
    assert.equal(taskRouter.methods.list.summary, 'Lists every task, oldest first.');
    assert.equal(manifest.configSnapshot.source, readFileSync(join(dist, 'config.yaml'), 'utf8'));
    // The handlers' return types, read from the sources and keyed by the compiled files the built app declares its routes in.
    const tasks = manifest.sourceTypes.files['routers/tasks.js'];
    assert.deepEqual(tasks['TaskRouter.list'].returns, { kind: 'json', schema: { type: 'array', items: { $ref: '#/components/schemas/Task' } } });
    assert.deepEqual(tasks['TaskRouter.one'].returns, { kind: 'json', schema: { $ref: '#/components/schemas/Task' } });
    assert.deepEqual(manifest.sourceTypes.files['routers/pages.js']['PageRouter.home'].returns, { kind: 'html' });
    assert.deepEqual(manifest.sourceTypes.files['routers/pages.js']['PageRouter.toHome'].returns, { kind: 'redirect' });
    assert.equal(manifest.sourceTypes.schemas.Task.type, 'object');
    assert.deepEqual(Object.keys(manifest.sourceTypes.files).filter((file) => !file.endsWith('.js')), []);
  });

  it('serves from node dist/main.js what trellis run serves, docs included, without TypeScript, sources or the CLI', async () => {
    // What the process has loaded once it listens, and by the time it exits.
    const probe = join(work, 'probe.js');
    const [atStart, loaded] = [join(work, 'at-start.json'), join(work, 'loaded.json')];
    writeFileSync(
      probe,
      [
        "const { writeFileSync } = require('node:fs');",
        'const modules = () => JSON.stringify(Object.keys(require.cache));',
        "const { Server } = require('node:http');",
        'const listen = Server.prototype.listen;',
        `Server.prototype.listen = function (...args) { this.once('listening', () => writeFileSync(${JSON.stringify(atStart)}, modules())); return listen.apply(this, args); };`,
        `process.on('exit', () => writeFileSync(${JSON.stringify(loaded)}, modules()));`,
      ].join('\n'),
    );
    const dev = start(['app'], work);
    const built = start([], app, ['--require', probe, join('dist', 'main.js')]);
    const [devUrl, builtUrl] = await Promise.all([dev.url(), built.url(undefined, BUILT_BANNER_END)]);
    const [expected, actual] = await Promise.all([sampleAnswers(devUrl, TOKEN), sampleAnswers(builtUrl, TOKEN)]);
    assert.deepEqual(actual, expected);
    assert.match(actual.find((line) => line.startsWith('GET /docs/openapi.json'))!, /"summary":"Lists every task, oldest first\."/);
    // The app by its title: `dist`, the folder a build is started from, names none.
    // (After the websockets plug-in's "startup hook finished" line, while it has a startup hook.)
    assert.match(built.stdout, /^(?:\{[^\n]*"msg":"startup hook finished"\}\n)?trellis \S+\nRunning app Build Test API on http:\/\/localhost:\d+\n {2}Config: {6}dist\/config\.yaml\n {2}Routers: {5}7 discovered\n/);
    assert.doesNotMatch(built.stdout, /trellis doctor/);
    assert.match(built.stdout, /"method":"GET","path":"\/tasks","status":200/);
    await Promise.all([stop(dev), stop(built)]);

    const modules = JSON.parse(readFileSync(loaded, 'utf8')) as string[];
    assert.ok(modules.some((file) => file.endsWith(join('dist', 'routers', 'tasks.js'))), 'the probe saw the app');
    // trellis and class-validator came from the bundle: none of their files was loaded from node_modules. The app's
    // \`require('trellis')\` and \`require('class-validator')\` found the bundle's copies in the module cache, under
    // the files those ids name.
    const shared = ['framework/index.js', 'framework/param.js', 'framework/security.js', 'framework/websocket.js'].map((file) => join(work, 'trellis', 'dist', file));
    assert.deepEqual(modules.filter((file) => file.startsWith(join(work, 'trellis', 'dist')) && !shared.includes(file)), []);
    assert.deepEqual(modules.filter((file) => /[/\\]class-validator[/\\]/.test(file) && !file.endsWith(join('cjs', 'index.js'))), []);
    assert.ok(modules.some((file) => file.endsWith(join('class-validator', 'cjs', 'index.js'))));
    const cli = join(work, 'trellis', 'dist', 'cli');
    assert.deepEqual(modules.filter((file) => file.endsWith('.ts') || /[/\\](typescript|@swc|ts-json-schema-generator)[/\\]/.test(file) || file.startsWith(cli) || file.startsWith(join(ROOT, 'cli'))), []);
    // Response serializers were compiled by the build: neither fast-json-stringify's compiler nor ajv is loaded.
    assert.deepEqual(modules.filter((file) => /[/\\]ajv[/\\]/.test(file) || /fast-json-stringify[/\\]index\.js$/.test(file)), []);
    assert.ok(modules.some((file) => /fast-json-stringify[/\\]lib[/\\]serializer\.js$/.test(file)), 'the shaped routes use the compiled serializers');
    // The source types come from the manifest: the reader is never loaded.
    assert.deepEqual(modules.filter((file) => /[/\\]source[/\\]types[/\\]read\.js$/.test(file)), []);
    // Nor, to start, a YAML parser: config.yaml is read from the manifest's snapshot while the file is as built.
    const started = JSON.parse(readFileSync(atStart, 'utf8')) as string[];
    assert.ok(started.some((file) => file.endsWith(join('dist', 'routers', 'tasks.js'))));
    assert.deepEqual(started.filter((file) => /[/\\]yaml[/\\]/.test(file)), []);
    // Nor what only some requests need: @fastify/send (a file sent), busboy (a multipart body), libphonenumber-js
    // (an @IsPhoneNumber check; class-validator holds a stand-in, max/index.cjs, until then).
    assert.deepEqual(started.filter((file) => /[/\\](@fastify[/\\]send|busboy)[/\\]/.test(file)), []);
    assert.deepEqual(started.filter((file) => /[/\\]libphonenumber-js[/\\]/.test(file) && !file.endsWith(join('max', 'index.cjs'))), []);
    // Nor pino: the access lines are written without it, which loads with the first other line. The sample's
    // gateways have one: the websockets plug-in's startup hook logs "startup hook finished" (until it starts lazily).
    const hookLine = /"msg":"startup hook finished"/.test(built.stdout);
    if (!hookLine) assert.deepEqual(started.filter((file) => /[/\\]node_modules[/\\]pino[/\\]/.test(file)), []);
  });

  it('serves the WebSocket gateways of routers/ from node dist/main.js, and closes them with 1001 on SIGTERM', async () => {
    const server = start([], app, [join('dist', 'main.js')]);
    const url = await server.url(undefined, BUILT_BANNER_END);
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/ws/tasks`);
    try {
      await once(socket, 'open');
      const message = once(socket, 'message').then(([data]) => JSON.parse(String(data)));
      const created = await http(`${url}/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"Over the wire"}' });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(await message, { event: 'created', data: JSON.parse(created.text) });
      const closed = once(socket, 'close').then(([code]) => code);
      await stop(server);
      assert.equal(await closed, 1001);
    } finally {
      socket.terminate();
    }
  });

  it('keeps serving after the project folder moves, docs included, and reads dist/config.yaml edited after the build', async () => {
    const moved = join(work, 'moved');
    mkdirSync(moved);
    renameSync(app, join(moved, 'app'));
    app = join(moved, 'app');
    const config = join(app, 'dist', 'config.yaml');
    const built = readFileSync(config, 'utf8');
    writeFileSync(config, built.replace(/title: .+/, 'title: Edited After The Build'));
    try {
      const server = start([], app, [join('dist', 'main.js')]);
      const url = await server.url(undefined, BUILT_BANNER_END);
      assert.equal((await http(`${url}/tasks/1`)).status, 200);
      const docs = (await http(`${url}/docs/openapi.json`)).text;
      assert.match(docs, /"summary":"Returns one task; 404 when no task has this id\."/);
      assert.match(docs, /"title":"Edited After The Build"/);
      await stop(server);
    } finally {
      writeFileSync(config, built);
    }
  });

  it('fails on a type error with file:line:col, and leaves the previous build in place', async () => {
    writeFileSync(join(app, 'routers', 'broken.ts'), "import { Get, router } from 'trellis';\n\nexport class Broken extends router('/b') {\n  @Get() list(): string {\n    return 42;\n  }\n}\n");
    try {
      const result = await runCli(['build', '.'], { cwd: app, timeoutMs: 60_000 });
      assert.equal(result.code, 1);
      assert.equal(
        result.stderr,
        "routers/broken.ts:5:5: Type 'number' is not assignable to type 'string'.\ntrellis: the build failed: 1 error; nothing was written\n",
      );
      assert.ok(existsSync(join(app, 'dist', 'main.js')));
    } finally {
      rmSync(join(app, 'routers', 'broken.ts'));
    }
  });

  it('fails to start with one line: a folder that is not a build, a build without trellis installed', () => {
    const notBuilt = join(work, 'not-built');
    mkdirSync(notBuilt);
    cpSync(join(app, 'dist', 'main.js'), join(notBuilt, 'main.js'));
    mkdirSync(join(notBuilt, 'node_modules'));
    symlinkSync(join(work, 'trellis'), join(notBuilt, 'node_modules', 'trellis'));
    const missing = spawnSync(process.execPath, [join(notBuilt, 'main.js')], { cwd: work, encoding: 'utf8' });
    assert.equal(missing.status, 1);
    assert.equal(missing.stderr, "trellis: not-built is not a trellis build (no trellis.manifest.json); make one with `trellis build`\n");

    const bare = mkdtempSync(join(tmpdir(), 'trellis-bare-'));
    try {
      cpSync(join(app, 'dist'), join(bare, 'dist'), { recursive: true });
      const alone = spawnSync(process.execPath, [join(bare, 'dist', 'main.js')], { cwd: bare, encoding: 'utf8' });
      assert.equal(alone.status, 1);
      assert.equal(alone.stderr.trim().split('\n').length, 1, alone.stderr);
      assert.match(alone.stderr, /^trellis: cannot find the trellis package from .*: install the project's dependencies \(npm ci --omit=dev\)\n$/);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it('serves with a code cache another Node wrote, or a damaged one: the bundle is then compiled as usual', async () => {
    const cache = join(app, 'dist', 'trellis.bundle.cache');
    const written = readFileSync(cache);
    try {
      for (const damaged of [written.subarray(0, written.length >> 1), Buffer.from('not a code cache')]) {
        writeFileSync(cache, damaged);
        const server = start([], app, [join('dist', 'main.js')]);
        const url = await server.url(undefined, BUILT_BANNER_END);
        assert.equal((await http(`${url}/tasks/1`)).status, 200);
        assert.equal((await http(`${url}/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":42}' })).status, 422);
        await stop(server);
      }
    } finally {
      writeFileSync(cache, written);
    }
  });

  it('builds without a bundle, and says so, when esbuild is not installed; main.js then serves trellis from node_modules', async () => {
    const link = join(app, 'node_modules', 'esbuild');
    rmSync(link);
    try {
      const result = await runCli(['build', 'app'], { cwd: dirname(app), timeoutMs: 60_000 });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /\nBuilt without a bundle: esbuild is not installed in the project \(npm install --save-dev esbuild for a faster start\)\.\n/);
      assert.deepEqual(readdirSync(join(app, 'dist')).filter((file) => file.startsWith('trellis.bundle')), []);
      const server = start([], app, [join('dist', 'main.js')]);
      const url = await server.url(undefined, BUILT_BANNER_END);
      assert.equal((await http(`${url}/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":42}' })).status, 422);
      await stop(server);
    } finally {
      symlinkSync(join(ROOT, 'node_modules', 'esbuild'), link);
    }
  });

  it('says that a build reads no .env when a variable config.yaml needs is set in .env only', () => {
    assert.match(readFileSync(join(app, '.env'), 'utf8'), new RegExp(`^ADMIN_TOKEN=${TOKEN}$`, 'm'));
    const line = readFileSync(join(app, 'dist', 'config.yaml'), 'utf8').split('\n').findIndex((text) => text.includes('${ADMIN_TOKEN}')) + 1;
    const { ADMIN_TOKEN: _, ...env } = { ...process.env, ...ENV };
    const started = spawnSync(process.execPath, [join('dist', 'main.js')], { cwd: app, encoding: 'utf8', env, timeout: 60_000 });
    assert.equal(started.status, 1);
    assert.equal(started.stderr, `trellis: dist/config.yaml:${line}: ADMIN_TOKEN is not set (a build reads no .env: set it in the environment)\n`);
  });

  it('names PORT, not a flag it does not have, when the port is taken', async () => {
    const blocker = await listenOn(0);
    try {
      const port = String((blocker.address() as { port: number }).port);
      const taken = spawnSync(process.execPath, [join('dist', 'main.js')], { cwd: app, encoding: 'utf8', env: { ...process.env, ...ENV, HOST: '127.0.0.1', PORT: port } });
      assert.equal(taken.status, 1);
      assert.equal(taken.stderr, `trellis: port ${port} is already in use on 127.0.0.1; choose another with PORT (e.g. PORT=${Number(port) + 1}, or PORT=0 for any free port)\n`);
    } finally {
      blocker.close();
    }
  });
});
