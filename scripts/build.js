#!/usr/bin/env node
'use strict';
// Builds dist/ (the package's compiled JS and .d.ts) from scratch: run by `npm run build` and by `prepack`,
// so `npm pack` and `npm publish` never ship a stale or missing dist/.
const { rmSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..');
rmSync(join(root, 'dist'), { recursive: true, force: true });
const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
