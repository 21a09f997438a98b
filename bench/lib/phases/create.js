'use strict';
// `trellis create <name> --yes --no-install` wall time, and the sample project the `trellis run`
// contender serves. When the CLI cannot make a project, the reason is returned instead.
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('../server');
const { summarize } = require('../stats');

const CLI = path.join(ROOT, 'bin', 'trellis.js');
// What a registry install of trellis-cli writes (from this checkout, create would pack it and copy the tarballs in).
const SPEC = `^${require(path.join(ROOT, 'package.json')).version}`;

function createProject(workDir, name) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    execFile(process.execPath, [CLI, 'create', name, '--yes', '--no-install', '--trellis-spec', SPEC], { cwd: workDir, timeout: 120_000 }, (error, stdout, stderr) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const dir = path.join(workDir, name);
      if (error) return resolve({ error: (stderr || stdout || error.message).trim().split('\n').slice(-3).join(' ') });
      if (!fs.existsSync(path.join(dir, 'routers'))) return resolve({ error: `trellis create made no routers/ folder in ${name}` });
      resolve({ ms, dir });
    });
  });
}

/** Resolves to `{ create: summary of ms | { error }, sampleDir }`. */
async function runCreate({ settings, workDir, log }) {
  const times = [];
  let sampleDir;
  for (let i = 0; i < settings.createRuns; i++) {
    const result = await createProject(workDir, `bench-sample-${i + 1}`);
    if (result.error) {
      log(`  trellis create failed: ${result.error}`);
      return { create: { error: result.error }, sampleDir: undefined };
    }
    times.push(result.ms);
    sampleDir ??= result.dir;
    log(`  run ${i + 1}/${settings.createRuns}: ${Math.round(result.ms)} ms`);
  }
  return { create: summarize(times), sampleDir };
}

module.exports = { runCreate };
