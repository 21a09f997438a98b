'use strict';
// The two samples the database figures compare, in their production form: the in-memory one (`trellis create`) and
// the database one (`trellis create --db`), each packed, installed and built as users build it (../built-sample.js).
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { promisify } = require('node:util');
const { buildSample } = require('../built-sample');
const { ROOT } = require('../server');

const run = promisify(execFile);
const CLI = path.join(ROOT, 'bin', 'trellis.js');
const SPEC = `^${require(path.join(ROOT, 'package.json')).version}`;
const KINDS = /** @type {const} */ (['memory', 'db']);

/** `trellis create <name> --yes --no-install [...flags]` in `dir`; resolves to the project's folder. */
async function createSample(dir, name, flags) {
  fs.mkdirSync(dir, { recursive: true });
  try {
    await run(process.execPath, [CLI, 'create', name, '--yes', '--no-install', '--no-git', '--trellis-spec', SPEC, ...flags], { cwd: dir, timeout: 120_000 });
  } catch (caught) {
    const error = /** @type {Error & { stderr?: string, stdout?: string }} */ (caught);
    throw new Error(`trellis create ${flags.join(' ')} failed: ${`${error.stderr ?? ''}${error.stdout ?? ''}`.trim() || error.message}`);
  }
  return path.join(dir, name);
}

/**
 * Resolves to `{ memory, db }`: the built copies (`node <dir>/dist/main.js` serves each) under `samplesDir`, made
 * there unless a previous run left them (`--built DIR` passes that run's folder).
 * @param {string} samplesDir
 * @param {(line: string) => void} log
 */
async function builtSamples(samplesDir, log) {
  /** @type {Record<string, string>} */
  const dirs = {};
  for (const kind of KINDS) {
    const workDir = path.join(samplesDir, kind);
    const built = path.join(workDir, 'bench-built');
    if (fs.existsSync(path.join(built, 'dist', 'main.js'))) {
      dirs[kind] = built;
      continue;
    }
    log(`building the ${kind === 'db' ? '--db' : 'in-memory'} sample (create, pack, install, build)`);
    const source = await createSample(path.join(workDir, 'source'), `bench-${kind}`, kind === 'db' ? ['--db'] : []);
    const result = await buildSample(source, workDir);
    if (result.error) throw new Error(`trellis build of the ${kind} sample failed: ${result.error}`);
    dirs[kind] = /** @type {string} */ (result.dir);
  }
  return { memory: dirs.memory, db: dirs.db };
}

/**
 * What the sample's config.yaml `database:` section gives: `pool` (10 when absent; the Fastify peer takes the same)
 * and the embedded database's folder, absolute (`data_dir`, default data/db, against the project folder).
 * @param {string} dir
 */
function sampleDatabase(dir) {
  const text = fs.readFileSync(path.join(dir, 'config.yaml'), 'utf8');
  const section = /^database:[^\n]*\n((?:[ \t]+.*(?:\n|$)|[ \t]*\n)*)/m.exec(text)?.[1] ?? '';
  const value = (key) => new RegExp(`^\\s+${key}:\\s*([^#\\s]+)`, 'm').exec(section)?.[1];
  const pool = value('pool');
  return { pool: pool ? Number(pool) : 10, dataDir: path.resolve(dir, value('data_dir') ?? path.join('data', 'db')) };
}

module.exports = { builtSamples, createSample, sampleDatabase };
