#!/usr/bin/env node
'use strict';
require('../register.js');
require('../cli/main.ts')
  .main(process.argv.slice(2))
  .then((code) => { process.exitCode = code; });
