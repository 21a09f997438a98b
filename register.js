'use strict';
// Loads TypeScript files through @swc/core with legacy decorators and decorator metadata, the two
// things class-validator and constructor injection need (esbuild/tsx emit no `design:paramtypes`).
//
// It also makes project code (a generated project run by `trellis run`/`trellis test`, with no
// `npm install`) import this package's own copies of `trellis`, `trellis/*` and the libraries whose
// state the framework shares with the project (class-validator keeps DTO rules in a module-level
// store): one instance of each. The hook runs when a module is resolved, never per request.
const Module = require('node:module');
const path = require('node:path');
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
  swcrc: false,
  configFile: false,
};

process.setSourceMapsEnabled(true);

Module._extensions['.ts'] = function compileTypeScript(module, filename) {
  const source = require('node:fs').readFileSync(filename, 'utf8');
  let code;
  try {
    ({ code } = transformSync(source, { ...options, filename }));
  } catch (error) {
    throw syntaxError(error, filename);
  }
  module._compile(code, filename);
};

// swc reports `  x Expression expected\n   ,-[/path/file.ts:4:1]\n ...`: keep the message and the
// location, drop the Rust backtrace. `file` and `line` are read by `trellis run` and `doctor`.
function syntaxError(error, filename) {
  const text = String(error && error.message ? error.message : error);
  const message = (/^\s*x (.+)$/m.exec(text) || [, 'Syntax error'])[1].trim();
  const where = /,-\[(.+):(\d+):(\d+)\]/.exec(text);
  const line = where ? Number(where[2]) : 1;
  const result = new SyntaxError(message);
  result.file = filename;
  result.line = line;
  result.stack = `SyntaxError: ${message}\n    at ${filename}:${line}:${where ? where[3] : 1}`;
  return result;
}

const root = __dirname;
const ownModules = path.join(root, 'node_modules') + path.sep;
const ALIASES = new Map([
  ['trellis', './framework/index'],
  ['trellis/param', './framework/param'],
  ['trellis/testing', './framework/testing'],
  ['trellis/package.json', './package.json'],
  ['class-validator', 'class-validator'],
  ['class-transformer', 'class-transformer'],
  ['reflect-metadata', 'reflect-metadata'],
]);

if (!Module._resolveFilename.trellisAliases) {
  const resolveFilename = Module._resolveFilename;
  const resolved = new Map();
  const hooked = function resolveWithAliases(request, parent, ...rest) {
    const target = ALIASES.get(request);
    // Libraries inside our node_modules keep their own resolution (they may pin other versions).
    if (target && !(parent && parent.filename && parent.filename.startsWith(ownModules))) {
      let file = resolved.get(request);
      if (file === undefined) resolved.set(request, (file = resolveFilename.call(this, target, module, false)));
      return file;
    }
    return resolveFilename.call(this, request, parent, ...rest);
  };
  hooked.trellisAliases = true;
  Module._resolveFilename = hooked;
}
