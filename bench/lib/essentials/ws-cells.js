'use strict';
// The two WebSocket cells of bench/essentials.js, each on a fresh server pinned to the server core: echo round
// trips per second (ws-echo-client.js on the load core, N connections) and the memory 1,000 idle connections hold.
const { execFile } = require('node:child_process');
const path = require('node:path');
const { onCore } = require('../cpu');
const { cpuSecondsOf } = require('../proc');
const { startServer } = require('../server');
const { fetchAnswer, openSocket } = require('./answer');

const CLIENT = path.join(__dirname, 'ws-echo-client.js');

/** Runs ws-echo-client.js on the load core (`headers` on each upgrade); resolves to its summary. */
function runEchoClient(pin, { port, path: wsPath, connections, seconds, headers = undefined }) {
  const argv = [process.execPath, CLIENT, String(port), wsPath, String(connections), String(seconds), ...(headers ? [JSON.stringify(headers)] : [])];
  const [file, ...args] = onCore(pin, pin.load, argv);
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: (seconds + 60) * 1000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`the echo client failed: ${stderr || error.message}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '{}'));
    });
  });
}

/**
 * One echo cell: `{ rps (round trips per second), p50, p99, cpuUs (server CPU per round trip), wrong, socketErrors
 * (sockets the server closed) }`, after `warmupSeconds` of the same load on other sockets; the measurement's
 * `headers` (the guarded echo's Authorization) go on every upgrade.
 */
async function measureEcho(contender, endpoint, { pin, settings }) {
  const server = await startServer(contender, pin, { readyPath: contender.readyPath });
  try {
    const run = { port: server.port, path: endpoint.path, connections: settings.wsConnections, headers: endpoint.headers };
    await runEchoClient(pin, { ...run, seconds: settings.warmupSeconds });
    const cpuBefore = cpuSecondsOf(server.pid);
    const result = await runEchoClient(pin, { ...run, seconds: settings.measureSeconds });
    const cpuSeconds = cpuSecondsOf(server.pid) - cpuBefore;
    return {
      rps: result.roundTrips / result.seconds,
      p50: result.p50,
      p99: result.p99,
      cpuUs: (cpuSeconds * 1e6) / result.roundTrips,
      wrong: result.wrong,
      socketErrors: result.closed,
    };
  } finally {
    await server.stop();
  }
}

const MB = 2 ** 20;

/** GET /memory: the server's process.memoryUsage() after a full collection (it runs with --expose-gc). */
async function memoryOfServer(port) {
  const answer = await fetchAnswer(port, { path: '/memory' });
  if (answer.status !== 200 || !answer.json?.collected) throw new Error(`GET /memory: ${answer.status} ${answer.text.slice(0, 200)}`);
  return answer.json;
}

/**
 * GET /memory until RSS holds still (within 1 MB over 250 ms, at most 20 tries): a collection hands memory back to
 * the system over a while, so one reading right after a start or after the sockets opened would count pages the
 * next second frees.
 */
async function settledMemory(port) {
  let last = await memoryOfServer(port);
  for (let i = 0; i < 20; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = await memoryOfServer(port);
    if (Math.abs(now.rss - last.rss) < MB) return now;
    last = now;
  }
  return last;
}

/**
 * One idle cell: the server's RSS and heap (MB, after a collection) before and after `settings.idleConnections`
 * sockets are opened to `endpoint.path` (from this process, on the load core) and left idle.
 */
async function measureIdle(contender, endpoint, { pin, settings }) {
  const server = await startServer(contender, pin, { readyPath: contender.readyPath });
  const sockets = [];
  try {
    const before = await settledMemory(server.port);
    for (let i = 0; i < settings.idleConnections; i += 50) {
      const batch = Math.min(50, settings.idleConnections - i);
      sockets.push(...(await Promise.all(Array.from({ length: batch }, () => openSocket(server.port, endpoint.path)))));
    }
    const after = await settledMemory(server.port);
    const open = sockets.filter((s) => s.readyState === s.OPEN).length;
    return {
      connections: open,
      rssBeforeMB: before.rss / MB,
      rssAfterMB: after.rss / MB,
      heapBeforeMB: before.heapUsed / MB,
      heapAfterMB: after.heapUsed / MB,
      externalBeforeMB: before.external / MB,
      externalAfterMB: after.external / MB,
    };
  } finally {
    for (const socket of sockets) socket.terminate();
    await server.stop();
  }
}

module.exports = { measureEcho, measureIdle, runEchoClient, memoryOfServer };
