#!/usr/bin/env node
'use strict';
// Output piped into a command that stops reading (`trellis doctor . | head`) is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}
const { existsSync } = require('node:fs');
const { join } = require('node:path');

// The compile hook for the project's TypeScript (and trellis's own sources in a checkout).
require('../register.js');
// A checkout (cli/main.ts present) runs the CLI's TypeScript sources; the installed package its compiled dist/.
const checkout = existsSync(join(__dirname, '..', 'cli', 'main.ts'));
require(checkout ? '../cli/main.ts' : '../dist/cli/main.js')
  .main(process.argv.slice(2))
  // Exit when the command is done, even if project code loaded by run/doctor left a timer or socket open
  // (stdout and stderr writes are synchronous for files, pipes and terminals, so nothing is lost).
  .then((code) => process.exit(code));
