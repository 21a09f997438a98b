'use strict';
// TypeScript to CommonJS through @swc/core, with legacy decorators and decorator metadata (the two things
// class-validator and constructor injection need; esbuild/tsx emit no `design:paramtypes`), cached on disk.
const path = require('node:path');
const { CompileCache, cacheDirs } = require('./compile-cache');

const PACKAGE_ROOT = path.join(__dirname, '..', '..');

/** @type {import('@swc/core').Options} */
const baseOptions = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  swcrc: false,
  configFile: false,
};
/** @type {{ mapped: import('@swc/core').Options, plain: import('@swc/core').Options }} */
const OPTIONS = {
  mapped: { ...baseOptions, sourceMaps: 'inline' },
  plain: { ...baseOptions, sourceMaps: false },
};
const OPTIONS_TEXT = JSON.stringify(OPTIONS);

const cache = process.env.TRELLIS_CACHE === 'off' ? undefined : new CompileCache(cacheDirs(PACKAGE_ROOT));
/** @type {typeof import('@swc/core') | undefined} loaded on the first cache miss (its native binding takes ~15 ms) */
let swc;
/** @type {string | undefined} part of every cache key: a new swc or new options never reuse old output */
let swcVersion;

/** @swc/core is an optional peer dependency: read when the first file is compiled, with the fix when it is missing. */
function swcPackageVersion() {
  try {
    return require('@swc/core/package.json').version;
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'MODULE_NOT_FOUND') throw error;
    /** @type {Error & { code?: string }} */
    const missing = new Error("@swc/core is not installed (it compiles the project's TypeScript): run `npm install -D @swc/core`");
    missing.code = 'TRELLIS_SWC_MISSING';
    throw missing;
  }
}

/**
 * The CommonJS code for a TypeScript file; `map` adds an inline source map (stack traces and load errors
 * then give TypeScript lines). Throws a SyntaxError with `file` and `line` when swc cannot parse it.
 * @param {string} source
 * @param {string} filename absolute
 * @param {boolean} map
 * @returns {string}
 */
function compileTypeScript(source, filename, map) {
  swcVersion ??= swcPackageVersion();
  const key = cache?.key(swcVersion, OPTIONS_TEXT, String(map), filename, source);
  const cached = key && cache?.get(key);
  if (cached !== undefined) return cached;
  swc ??= require('@swc/core');
  let code;
  try {
    ({ code } = swc.transformSync(source, { ...(map ? OPTIONS.mapped : OPTIONS.plain), filename }));
  } catch (error) {
    throw syntaxError(error, filename);
  }
  if (key) cache?.set(key, code);
  return code;
}

// swc reports `  x Expression expected\n   ,-[/path/file.ts:4:1]\n ...`: keep the message and the
// location, drop the Rust backtrace. `file` and `line` are read by `trellis run` and `doctor`.
function syntaxError(error, filename) {
  const text = String(error && error.message ? error.message : error);
  const message = (/^\s*x (.+)$/m.exec(text) || [, 'Syntax error'])[1].trim();
  const where = /,-\[(.+):(\d+):(\d+)\]/.exec(text);
  const line = where ? Number(where[2]) : 1;
  /** @type {SyntaxError & { file?: string, line?: number }} */
  const result = new SyntaxError(message);
  result.file = filename;
  result.line = line;
  result.stack = `SyntaxError: ${message}\n    at ${filename}:${line}:${where ? where[3] : 1}`;
  return result;
}

module.exports = { compileTypeScript };
