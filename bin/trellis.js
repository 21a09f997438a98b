#!/usr/bin/env node
'use strict';
// Output piped into a command that stops reading (`trellis doctor . | head`) is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}
require('../register.js');
require('../cli/main.ts')
  .main(process.argv.slice(2))
  // Exit when the command is done, even if project code loaded by run/doctor left a timer or socket open
  // (stdout and stderr writes are synchronous for files, pipes and terminals, so nothing is lost).
  .then((code) => process.exit(code));
