'use strict';
// The modules a project shares with trellis: its imports of these ids are trellis's own copies, one instance
// of each (class-validator keeps DTO rules in a module-level store; a project's `Registry` from prom-client
// must be the class of the registry the app provides). register.js resolves them to trellis's files;
// the package's runtime bundle (scripts/build.js) carries them for `trellis run`.

/**
 * Each shared id and what it resolves to from trellis's folder: a file of trellis's code, under `code`
 * (`.` in a checkout, which runs the TypeScript sources; `./dist` installed), or the library's own id.
 * @param {string} code
 * @returns {Map<string, string>}
 */
function sharedAliases(code) {
  return new Map([
    ['trellis', `${code}/framework/index`],
    ['trellis/param', `${code}/framework/param`],
    ['trellis/testing', `${code}/framework/testing`],
    ['trellis/inspect', `${code}/framework/inspect`],
    ['trellis/express', `${code}/framework/express/index`],
    ['trellis/security', `${code}/framework/security`],
    ['trellis/plugins', `${code}/framework/plugins`],
    ['trellis/database', `${code}/framework/database`],
    ['trellis/auth', `${code}/framework/auth`],
    ['trellis/websocket', `${code}/framework/websocket`],
    ['trellis/runtime', `${code}/runtime/index`],
    ['trellis/internal', `${code}/runtime/internal`],
    ['trellis/package.json', './package.json'],
    ['class-validator', 'class-validator'],
    ['class-transformer', 'class-transformer'],
    ['reflect-metadata', 'reflect-metadata'],
    ['prom-client', 'prom-client'],
  ]);
}

module.exports = { sharedAliases };
