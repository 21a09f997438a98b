'use strict';
// Loads TypeScript files through @swc/core with legacy decorators and decorator metadata, the two
// things class-validator and constructor injection need (esbuild/tsx emit no `design:paramtypes`).
const Module = require('node:module');
const { transformSync } = require('@swc/core');

const options = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

process.setSourceMapsEnabled(true);

Module._extensions['.ts'] = function compileTypeScript(module, filename) {
  const source = require('node:fs').readFileSync(filename, 'utf8');
  const { code } = transformSync(source, { ...options, filename });
  module._compile(code, filename);
};
