import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import { readConfig } from '../config';
import { parseYaml } from '../yaml-source';

const ROOT = resolve(__dirname, '..', '..');
const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const temporary = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

describe("config.yaml's snapshot in the project cache (trellis run)", () => {
  let project: string;
  let cache: string;
  const saved = { dir: process.env.TRELLIS_CACHE_DIR, mode: process.env.TRELLIS_CACHE };
  const entries = () => (existsSync(join(cache, 'config')) ? readdirSync(join(cache, 'config')).filter((f) => f.endsWith('.json')) : []);
  const entry = () => join(cache, 'config', entries()[0]);

  beforeEach(() => {
    project = temporary('trellis-config-cache-');
    cache = temporary('trellis-cache-dir-');
    process.env.TRELLIS_CACHE_DIR = cache;
    delete process.env.TRELLIS_CACHE;
  });
  afterEach(() => {
    for (const [name, value] of [['TRELLIS_CACHE_DIR', saved.dir], ['TRELLIS_CACHE', saved.mode]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('is made on the first read and used by the next while the file holds the same text, references read at each read', () => {
    writeFileSync(join(project, 'config.yaml'), 'app: { title: ${TITLE:-Cached}, version: 1.0.0 }\n');
    assert.equal(readConfig(project, {}).settings.app.title, 'Cached');
    assert.equal(entries().length, 1);
    assert.equal(readConfig(project, { TITLE: 'From env' }).settings.app.title, 'From env');
    // The entry is what the next read uses (marked here so that it shows).
    const kept = JSON.parse(readFileSync(entry(), 'utf8'));
    kept.value.app.version = '9.9.9';
    writeFileSync(entry(), JSON.stringify(kept));
    assert.equal(readConfig(project, {}).settings.app.version, '9.9.9');
    writeFileSync(join(project, 'config.yaml'), 'app: { title: Edited, version: 1.0.0 }\n');
    assert.deepEqual([readConfig(project, {}).settings.app.title, readConfig(project, {}).settings.app.version], ['Edited', '1.0.0']);
  });

  it('reports an unset reference, and a file with an issue, as the parser does, keeping no entry for the latter', () => {
    writeFileSync(join(project, 'config.yaml'), 'app: { title: Demo }\nadmin:\n  token: ${ADMIN_TOKEN}\n');
    readConfig(project, { ADMIN_TOKEN: 'x' });
    const unset = readConfig(project, {});
    assert.deepEqual(unset.issues, parseYaml(readFileSync(join(project, 'config.yaml'), 'utf8'), {}).issues);
    assert.equal(unset.issues[0].line, 3);
    const source = 'app: { title: Demo }\nserver: [1\n';
    writeFileSync(join(project, 'config.yaml'), source);
    assert.deepEqual(readConfig(project, {}).issues, parseYaml(source, {}).issues);
    assert.equal(entries().length, 1, 'only the first text has an entry');
  });

  it('makes a damaged entry again, and keeps none with TRELLIS_CACHE=off', () => {
    writeFileSync(join(project, 'config.yaml'), 'app: { title: Demo }\n');
    readConfig(project, {});
    writeFileSync(entry(), '{"marker": 1');
    assert.equal(readConfig(project, {}).settings.app.title, 'Demo');
    assert.equal(JSON.parse(readFileSync(entry(), 'utf8')).source, 'app: { title: Demo }\n');
    rmSync(join(cache, 'config'), { recursive: true });
    process.env.TRELLIS_CACHE = 'off';
    delete process.env.TRELLIS_CACHE_DIR;
    assert.equal(readConfig(project, {}).settings.app.title, 'Demo');
    assert.deepEqual(entries(), []);
  });

  it('spares a later start the YAML parser', () => {
    writeFileSync(join(project, 'config.yaml'), 'app: { title: ${TITLE:-Demo} }\nserver: { port: 8123 }\n');
    const script = [
      `const { readConfig } = require(${JSON.stringify(join(ROOT, 'runtime', 'config.ts'))});`,
      `const title = readConfig(${JSON.stringify(project)}, { TITLE: 'T' }).settings.app.title;`,
      // Its package.json (the version in the cache key) is read, none of its code.
      "const yaml = Object.keys(require.cache).filter((file) => /[\\\\/]node_modules[\\\\/]yaml[\\\\/].*\\.js$/.test(file)).length;",
      'console.log(JSON.stringify({ title, yaml }));',
    ].join('\n');
    const run = () => JSON.parse(execFileSync(process.execPath, ['-r', join(ROOT, 'register.js'), '-e', script], { cwd: ROOT, env: { ...process.env, TRELLIS_CACHE_DIR: cache }, encoding: 'utf8' }));
    const first = run();
    assert.equal(first.title, 'T');
    assert.ok(first.yaml > 0, 'the first start parses the file');
    assert.deepEqual(run(), { title: 'T', yaml: 0 });
  });
});
