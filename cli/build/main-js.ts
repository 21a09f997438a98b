/** The file `node dist/main.js` runs (`npm start` of a generated project): the build served by trellis/runtime. */
export const MAIN_JS = `#!/usr/bin/env node
'use strict';
// Written by \`trellis build\`. Serves the app compiled into this folder as \`trellis run\` serves the project
// (config.yaml and the environment, banner, access log, graceful shutdown), from trellis.manifest.json:
// no TypeScript compiler, no source file, no CLI. It needs the project's dependencies installed in this
// folder or one above it (\`npm ci --omit=dev\`).
let runtime;
try {
  runtime = require.resolve('trellis/runtime');
} catch {
  process.stderr.write(\`trellis: cannot find the trellis package from \${__dirname}: install the project's dependencies (npm ci --omit=dev)\\n\`);
  process.exit(1);
}
require(runtime)
  .runBuild(__dirname)
  .then((code) => process.exit(code));
`;

/**
 * Written next to the compiled files of a project whose package.json says `"type": "module"`: they are
 * CommonJS, which Node would otherwise read as ES modules. (Not written otherwise: a `COPY dist ./` in a
 * Dockerfile would put it over the project's own package.json.)
 */
export const PACKAGE_JSON = `${JSON.stringify({ type: 'commonjs', private: true }, null, 2)}\n`;
