'use strict';
// The start and end of an entry script (auth.js, database.js, vs-fastify.js): wrk, the peers and the cores made
// ready; the exit code, or a failure as one line.
const { pinning, pinSelf } = require('./cpu');
const { installPeers } = require('./install');
const { assertWrk } = require('./wrk');

/**
 * Before a run that loads servers with wrk: wrk installed, bench's peers installed (npm ci in bench/ when one is
 * missing), this process moved to the load core; returns the pinning.
 * @param {(line: string) => void} log
 */
function prepareLoadRun(log) {
  assertWrk();
  installPeers(log);
  const pin = pinning();
  pinSelf(pin);
  return pin;
}

/**
 * Runs `main` and sets the process's exit code to what it resolves to; a rejection prints `bench: <message>` on
 * stderr and exits 1.
 * @param {() => Promise<number>} main
 */
function runMain(main) {
  main().then(
    (code) => (process.exitCode = code),
    (error) => {
      console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}

module.exports = { prepareLoadRun, runMain };
