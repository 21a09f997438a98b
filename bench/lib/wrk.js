'use strict';
// Runs wrk (one thread, pinned to the load core) and reads its summary.
const { execFile, execFileSync } = require('node:child_process');
const { onCore } = require('./cpu');

const UNIT_MS = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function toMs(text) {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  return match ? Number(match[1]) * UNIT_MS[match[2]] : NaN;
}

/** Parses wrk's `--latency` output into numbers (latencies in ms). */
function parseWrk(output) {
  const number = (re) => Number(re.exec(output)?.[1] ?? NaN);
  const percentile = (p) => toMs(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(output)?.[1] ?? '');
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    requestsPerSecond: number(/Requests\/sec:\s+([\d.]+)/),
    requests: number(/(\d+) requests in/),
    p50: percentile(50),
    p99: percentile(99),
    non2xx: number(/Non-2xx or 3xx responses: (\d+)/) || 0,
    socketErrors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
  };
}

/**
 * Runs `wrk -t1 -cN -dS --latency [-s script] url`; resolves to the parsed summary.
 * @param {ReturnType<import('./cpu').pinning>} pin
 * @param {{ port: number, path?: string, script?: string, seconds: number, connections: number }} run
 */
function runWrk(pin, { port, path = '/', script, seconds, connections }) {
  const args = ['wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '--timeout', '10s'];
  if (script) args.push('-s', script);
  args.push(`http://127.0.0.1:${port}${path}`);
  const [file, ...rest] = onCore(pin, pin.load, args);
  return new Promise((resolve, reject) => {
    execFile(file, rest, { timeout: (seconds + 30) * 1000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`wrk failed: ${stderr || error.message}`));
      const result = parseWrk(stdout);
      if (!Number.isFinite(result.requestsPerSecond)) return reject(new Error(`unreadable wrk output:\n${stdout}`));
      resolve(result);
    });
  });
}

/** Runs wrk with a script that exits it after a number of responses (see `writeMixScript`). */
function runWrkUntil(pin, { port, script, connections, maxSeconds }) {
  const args = ['wrk', '-t1', `-c${connections}`, `-d${maxSeconds}s`, '-s', script, `http://127.0.0.1:${port}/`];
  const [file, ...rest] = onCore(pin, pin.load, args);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    execFile(file, rest, { timeout: (maxSeconds + 30) * 1000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`wrk failed: ${stderr || error.message}`));
      // A summary means the duration ran out before the count was reached.
      if (/requests in/.test(stdout)) return reject(new Error(`request count not reached in ${maxSeconds} s`));
      resolve({ seconds: (Date.now() - started) / 1000 });
    });
  });
}

/** Throws a one-line error when wrk is not installed. */
function assertWrk() {
  try {
    execFileSync('wrk', ['-v'], { stdio: 'ignore' });
  } catch (error) {
    // `wrk -v` prints its version and exits 1; only a missing binary is a problem.
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') throw new Error('wrk is not installed (Debian/Ubuntu: apt-get install wrk)');
  }
}

module.exports = { runWrk, runWrkUntil, parseWrk, assertWrk };
