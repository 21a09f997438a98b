'use strict';
// Starting a contender as a fresh process pinned to the server core, waiting for its first 200, stopping it.
const { spawn } = require('node:child_process');
const net = require('node:net');
const { onCore } = require('./cpu');
const { request } = require('./http-get');
const { descendants } = require('./proc');

const ROOT = require('node:path').resolve(__dirname, '..', '..');

/** A free port on 127.0.0.1 (asked from the kernel, then released for the server to take). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Spawns `contender` (its `command(port)` argv) and resolves once `GET readyPath` (with the contender's
 * `readyHeaders`) answers 200, with the time from spawn to that answer. Rejects with the process's last stderr lines if it exits or times out.
 */
async function startServer(contender, pin, { readyPath = '/tasks/1', timeoutMs = 30_000, env = {} } = {}) {
  const port = await freePort();
  const [file, ...args] = onCore(pin, pin.server, contender.command(port));
  const started = process.hrtime.bigint();
  const child = spawn(file, args, {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), ...contender.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  let exited = null;
  child.once('exit', (code, signal) => (exited = signal ?? code));
  const server = { contender, port, child, pid: child.pid, stop: () => stopProcess(child), stderr: () => stderr };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited !== null) throw new Error(`${contender.id} exited (${exited}) before answering:\n${stderr.trim()}`);
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`${contender.id} did not answer GET ${readyPath} with 200 in ${timeoutMs / 1000} s:\n${stderr.trim()}`);
    }
    try {
      const answer = await request(port, { path: readyPath, headers: contender.readyHeaders }, 2000);
      if (answer.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(2);
  }
  server.coldStartMs = Number(process.hrtime.bigint() - started) / 1e6;
  return server;
}

/** SIGTERM (then SIGKILL after 5 s) to the process and any children it started; resolves when it is gone. */
async function stopProcess(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const children = descendants(child.pid);
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await gone;
  clearTimeout(timer);
  for (const pid of children) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone with its parent
    }
  }
}

module.exports = { startServer, freePort, ROOT };
