'use strict';
// The sample project from this working tree: `trellis create` (this checkout's CLI and blueprints, every example,
// no install, no git; `trellis run` of this checkout gives the project this checkout's `trellis`), served by
// `trellis run` on a free port with a known ADMIN_TOKEN, ready when GET /readyz answers 200.
const { spawn, execFile } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { freePort } = require('../../lib/server');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CLI = path.join(ROOT, 'bin', 'trellis.js');
const EXAMPLES = 'products,users,upload,pages,admin';

/**
 * Creates the sample in a new temporary folder; resolves to its path.
 * @example const dir = await createSample(); // /tmp/trellis-openapi-XXXX/sample
 */
function createSample() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-openapi-'));
  const args = [CLI, 'create', 'sample', '--yes', '--no-install', '--no-git', '--examples', EXAMPLES];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: work, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`trellis create failed: ${stderr || error.message}`));
      resolve(path.join(work, 'sample'));
    });
  });
}

/**
 * Serves `dir` with this checkout's `trellis run`; resolves to `{ base, stop() }` once /readyz answers 200.
 * @example const { base, stop } = await serve(dir, 'token'); // base: http://127.0.0.1:PORT
 */
async function serve(dir, token, { timeoutMs = 90_000 } = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, 'run', dir, '--host', '127.0.0.1', '--port', String(port), '--no-access-log'], {
    cwd: dir,
    env: { ...process.env, ADMIN_TOKEN: token, NODE_ENV: 'development' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  let exited = null;
  child.once('exit', (code, signal) => (exited = signal ?? code));
  child.once('error', (error) => (exited = error.message));
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(undefined);
      });
      child.kill('SIGTERM');
    });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited !== null) throw new Error(`trellis run exited (${exited}) before it was ready:\n${stderr.trim()}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`trellis run was not ready in ${timeoutMs / 1000} s:\n${stderr.trim()}`);
    }
    try {
      const answer = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(2000) });
      await answer.arrayBuffer();
      if (answer.status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { base, stop, stderr: () => stderr };
}

/** The docs path of a project: config.yaml `docs.path`, else /docs. */
function docsPath(dir) {
  try {
    const { parse } = require('yaml');
    const config = parse(fs.readFileSync(path.join(dir, 'config.yaml'), 'utf8')) ?? {};
    return String(config.docs?.path ?? '/docs').replace(/\/$/, '');
  } catch {
    return '/docs';
  }
}

module.exports = { createSample, serve, docsPath, EXAMPLES, ROOT };
