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
  .then((code) => { process.exitCode = code; });
