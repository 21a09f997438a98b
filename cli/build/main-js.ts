import { BUNDLE_FILE, CODE_CACHE_FILE } from './bundle';

/** The file `node dist/main.js` runs (`npm start` of a generated project): the build served by trellis/runtime. */
export const MAIN_JS = `#!/usr/bin/env node
'use strict';
// Written by \`trellis build\`. Serves the app compiled into this folder as \`trellis run\` serves the project
// (config.yaml and the environment, banner, access log, graceful shutdown), from trellis.manifest.json
// (\`--migrate\`: applies the database's pending migrations instead, the deploy step without the CLI):
// no TypeScript compiler, no source file, no CLI. It needs the project's dependencies installed in this
// folder or one above it (\`npm ci --omit=dev\`). trellis, and what the app imports of its libraries, come from
// ${BUNDLE_FILE} when the build made one, compiled from V8's code cache in ${CODE_CACHE_FILE} when this
// version of Node wrote it; from node_modules otherwise.
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');
let trellis;
try {
  trellis = require.resolve('trellis/package.json');
} catch {
  process.stderr.write(\`trellis: cannot find the trellis package from \${__dirname}: install the project's dependencies (npm ci --omit=dev)\\n\`);
  process.exit(1);
}
// \`node dist/main.js --migrate\`: apply the migrations the database lacks (dist/migrations), then exit.
const migrate = process.argv[2] === '--migrate';
const bundle = join(__dirname, '${BUNDLE_FILE}');
if (existsSync(bundle)) {
  const cache = join(__dirname, '${CODE_CACHE_FILE}');
  let cachedData;
  try {
    cachedData = readFileSync(cache);
  } catch {
    // none: compiled as usual
  }
  // Wrapped on the bundle's first line, so its line numbers are the file's; its \`require\` is trellis's. Named
  // by its file name alone, in stack traces too: the code cache keeps the name it was written with.
  const code = \`(function (exports, require, module, __filename, __dirname, __trellis) {\${readFileSync(bundle, 'utf8')}\\n})\`;
  const script = new Script(code, { filename: '${BUNDLE_FILE}', cachedData });
  const loaded = { exports: {} };
  script.runInThisContext()(loaded.exports, createRequire(trellis), loaded, bundle, __dirname, dirname(trellis));
  const { runtime, shared } = loaded.exports;
  if (process.argv[2] === '--write-code-cache') {
    // \`trellis build\` runs this: the cache then holds what loading the app compiled.
    const status = runtime.prepareBuild(__dirname, { shared });
    if (status === 0) writeFileSync(cache, script.createCachedData());
    process.exit(status);
  }
  runtime.runBuild(__dirname, { shared, migrate }).then((status) => process.exit(status));
} else {
  require('trellis/runtime')
    .runBuild(__dirname, { migrate })
    .then((status) => process.exit(status));
}
`;

/**
 * Written next to the compiled files of a project whose package.json says `"type": "module"`: they are
 * CommonJS, which Node would otherwise read as ES modules. (Not written otherwise: a `COPY dist ./` in a
 * Dockerfile would put it over the project's own package.json.)
 */
export const PACKAGE_JSON = `${JSON.stringify({ type: 'commonjs', private: true }, null, 2)}\n`;
