'use strict';
// Core pinning: the server under test gets one core, the load generator (wrk) and this harness the other,
// so neither steals cycles from the other. Without taskset or with one core, nothing is pinned (and the
// report says so).
const { execFileSync } = require('node:child_process');
const os = require('node:os');

function hasTaskset() {
  try {
    execFileSync('taskset', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `{ server, load, pinned }`: the cores used, and whether pinning is in effect. */
function pinning() {
  const cores = os.availableParallelism ? os.availableParallelism() : os.cpus().length;
  const pinned = cores >= 2 && hasTaskset();
  return { server: 0, load: 1, pinned, cores };
}

/** Prefixes `command` with `taskset -c CORE` when pinning is in effect (taskset execs: the pid is the command's). */
function onCore(pin, core, command) {
  return pin.pinned ? ['taskset', '-c', String(core), ...command] : command;
}

/** Moves this process (the harness) to the load generator's core. */
function pinSelf(pin) {
  if (pin.pinned) execFileSync('taskset', ['-a', '-cp', String(pin.load), String(process.pid)], { stdio: 'ignore' });
}

/** A short description of the machine for the report. */
function machine(pin) {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return {
    cpu,
    cores: pin.cores,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    pinned: pin.pinned,
  };
}

module.exports = { pinning, onCore, pinSelf, machine };
