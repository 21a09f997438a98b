import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SHARED_STATE } from '../build/bundle';
import { createProject, projectDefaults, resolveExamples } from '../../generators';
import { http, Running } from './run-support';
import { linkDependencies, sampleAnswers, stageTrellis, stagedCli } from './staged-trellis';

// `trellis run` of the installed package, whose dist/ holds the runtime bundle `npm pack` writes.
const TOKEN = 'bundle-test-token';
let work: string;
let trellis: string;
let cacheDir: string;
const running: Running[] = [];

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'trellis-run-bundle-'));
  trellis = join(work, 'trellis');
  cacheDir = join(work, 'cache');
  await stageTrellis(trellis, { cli: true });
  const { root: app } = await createProject({
    cwd: work,
    name: 'app',
    title: 'Bundle Test API',
    description: 'Run by the test.',
    port: 0,
    examples: resolveExamples(projectDefaults('app').examples),
    adminToken: TOKEN,
  });
  linkDependencies(app, trellis);
  // Every file Node's CommonJS loader compiles, written when the process exits.
  writeFileSync(
    join(work, 'probe.js'),
    [
      "const Module = require('node:module');",
      'const compiled = [];',
      'const compile = Module.prototype._compile;',
      'Module.prototype._compile = function (content, filename) { compiled.push(filename); return compile.apply(this, arguments); };',
      "process.on('exit', () => require('node:fs').writeFileSync(process.env.PROBE_OUT, JSON.stringify(compiled)));",
    ].join('\n'),
  );
});

after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  rmSync(work, { recursive: true, force: true });
});

/** `trellis run app` by the staged package's CLI; what it compiled goes to `<work>/<probe>.json`. */
function run(probe: string, env: NodeJS.ProcessEnv = {}): Running {
  const cli = ['--require', join(work, 'probe.js'), stagedCli(trellis), 'run'];
  const process = new Running(['app'], work, { ADMIN_TOKEN: TOKEN, PORT: '0', TRELLIS_CACHE_DIR: cacheDir, PROBE_OUT: join(work, `${probe}.json`), ...env }, cli);
  running.push(process);
  return process;
}

async function stop(process: Running): Promise<void> {
  process.kill('SIGTERM');
  assert.deepEqual(await process.exited, { code: 0, signal: null }, process.stderr);
}

const compiled = (probe: string) => JSON.parse(readFileSync(join(work, `${probe}.json`), 'utf8')) as string[];
// trellis's framework and runtime files, and class-validator's: what the bundle carries.
const bundledFiles = (files: string[]) =>
  files.filter((file) => file.startsWith(join(trellis, 'dist', 'framework')) || file.startsWith(join(trellis, 'dist', 'runtime')) || /[/\\]class-validator[/\\]/.test(file));
const codeCaches = () => readdirSync(cacheDir).filter((name) => /^runtime-v\d+\.\d+\.\d+-\w+-[0-9a-f]{16}\.v8cache$/.test(name));

describe('trellis run from the installed package', () => {
  it('serves from the runtime bundle what it serves without, loading none of the files the bundle carries', async () => {
    const plain = run('plain', { TRELLIS_RUNTIME_BUNDLE: 'off' });
    const bundled = run('bundled');
    const [plainUrl, bundledUrl] = await Promise.all([plain.url(), bundled.url()]);
    const [expected, actual] = await Promise.all([sampleAnswers(plainUrl, TOKEN), sampleAnswers(bundledUrl, TOKEN)]);
    assert.deepEqual(actual, expected);
    assert.match(actual.find((line) => line.startsWith('POST /tasks') && line.includes('422'))!, /"field":"title"/);
    await Promise.all([stop(plain), stop(bundled)]);

    assert.ok(bundledFiles(compiled('plain')).length > 100, 'without the bundle, trellis loads module by module');
    assert.deepEqual(bundledFiles(compiled('bundled')), []);
    assert.ok(compiled('bundled').some((file) => file.endsWith(join('app', 'routers', 'tasks.ts'))), 'the project is compiled as before');
  });

  it("writes V8's code cache of the bundle on exit, compiles from it the next time, and replaces one V8 refuses", async () => {
    const [cache] = codeCaches();
    assert.ok(cache, `a code cache in ${readdirSync(cacheDir).join(', ')}`);
    const file = join(cacheDir, cache);
    const written = statSync(file).mtimeMs;

    const again = run('again');
    assert.equal((await http(`${await again.url()}/tasks/1`)).status, 200);
    await stop(again);
    assert.equal(statSync(file).mtimeMs, written, 'a cache V8 took is not written again');

    writeFileSync(file, 'not a code cache');
    const damaged = run('damaged');
    const url = await damaged.url();
    assert.equal((await http(`${url}/tasks/1`)).status, 200);
    assert.equal((await http(`${url}/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":42}' })).status, 422);
    await stop(damaged);
    assert.deepEqual(codeCaches(), [cache]);
    assert.ok(statSync(file).size > 100_000, 'rewritten whole');
  });

  it('loads trellis from node_modules when a package the bundle carries is installed in another version', async () => {
    const metaFile = join(trellis, 'dist', 'trellis.runtime.json');
    const meta = readFileSync(metaFile, 'utf8');
    const other = JSON.parse(meta) as { packages: Record<string, string[]> };
    other.packages['class-validator'] = ['0.0.1'];
    writeFileSync(metaFile, JSON.stringify(other));
    try {
      const upgraded = run('upgraded');
      const url = await upgraded.url();
      assert.equal((await http(`${url}/tasks/1`)).status, 200);
      assert.equal((await http(`${url}/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":42}' })).status, 422);
      await stop(upgraded);
      assert.ok(bundledFiles(compiled('upgraded')).length > 100);
    } finally {
      writeFileSync(metaFile, meta);
    }
  });
});

describe('the modules a project shares with trellis', () => {
  it("are one list: a build's bundle shares the libraries that register.js and the package's bundle alias", () => {
    const { sharedAliases } = require('../loader/aliases') as { sharedAliases: (code: string) => Map<string, string> };
    const libraries = [...sharedAliases('.').keys()].filter((id) => !id.startsWith('trellis'));
    assert.deepEqual([...SHARED_STATE].sort(), libraries.sort());
  });
});
