#!/usr/bin/env node
'use strict';
// Builds dist/ (the package's compiled JS and .d.ts) from scratch: run by `npm run build` and by `prepack`,
// so `npm pack` and `npm publish` never ship a stale or missing dist/. Then copies the docs pages' prebuilt
// assets (ReDoc's and Swagger UI's bundles, with their licences) to dist/vendor/: see framework/docs/assets.ts;
// and, with esbuild, the runtime bundle that `trellis run` loads.
const { copyFileSync, existsSync, mkdirSync, rmSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..');
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);

const { ASSET_FILES } = require(join(dist, 'framework', 'docs', 'assets.js'));
const LICENCES = ['LICENSE', 'NOTICE'];
for (const file of ASSET_FILES) {
  const pkg = file.startsWith('@') ? file.split('/').slice(0, 2).join('/') : file.split('/')[0];
  const pkgDir = dirname(require.resolve(`${pkg}/package.json`, { paths: [root] }));
  const copies = [file, `${file}.LICENSE.txt`, ...LICENCES.map((name) => `${pkg}/${name}`)];
  for (const copy of copies) {
    const from = join(pkgDir, copy.slice(pkg.length + 1));
    if (!existsSync(from)) continue;
    mkdirSync(dirname(join(dist, 'vendor', copy)), { recursive: true });
    copyFileSync(from, join(dist, 'vendor', copy));
  }
}

// The runtime bundle `trellis run` loads from the installed package (cli/project/runtime-bundle.ts): without
// esbuild (a devDependency) the package is whole, and `trellis run` loads the runtime module by module.
let esbuild;
try {
  esbuild = require(require.resolve('esbuild', { paths: [root] }));
} catch {
  process.stdout.write('dist/trellis.runtime.js not written: esbuild is not installed\n');
}
if (esbuild) {
  require(join(dist, 'cli', 'build', 'runtime-bundle.js'))
    .writeRuntimeBundle(esbuild, root)
    .catch((error) => {
      process.stderr.write(`the runtime bundle failed: ${error.message}\n`);
      process.exit(1);
    });
}
