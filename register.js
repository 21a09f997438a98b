'use strict';
// Loads TypeScript files (see cli/loader/typescript.js: @swc/core with decorator metadata, cached on disk
// in node_modules/.cache/trellis or a private folder in the system's temporary folder; `TRELLIS_CACHE_DIR`
// sets the folder, `TRELLIS_CACHE=off` turns the cache off).
//
// Installed (trellis-cli), the CLI and trellis are compiled JavaScript (dist/): only the project's files go through swc.
//
// Source maps only where a user reads the lines: project code (load errors, stack traces and route
// locations then give TypeScript lines), tests and tools. trellis's own framework/, runtime/, cli/ and generators/
// go without (Node parses every map of every module loaded once maps are on, libraries' too), unless Node
// runs with --enable-source-maps. Maps are turned on when the first mapped file loads.
//
// It also makes project code (a generated project run by `trellis run`/`trellis test`, with no
// `npm install`) and the CLI import one copy of `trellis`, `trellis/*` and the libraries whose state the
// framework shares with the project (class-validator keeps DTO rules in a module-level store): in a checkout
// trellis's TypeScript sources; installed, the trellis package trellis-cli finds (its peer dependency: the
// project's own) and the libraries as that package finds them. The hook runs when a module is resolved,
// never per request.
/**
 * Node's CommonJS loader with the two internals this hook replaces, and the lookup path list it uses (not in
 * @types/node; stable since Node 0.x).
 * @type {typeof import('node:module') & {
 *   _nodeModulePaths: (from: string) => string[],
 *   _extensions: Record<string, (module: NodeJS.Module & { _compile(code: string, filename: string): void }, filename: string) => void>,
 *   _resolveFilename: ((this: unknown, request: string, parent: NodeJS.Module | undefined, ...rest: unknown[]) => string) & { trellisAliases?: boolean },
 * }}
 */
const Module = /** @type {any} */ (require('node:module'));
const fs = require('node:fs');
const path = require('node:path');
const { sharedAliases } = require('./cli/loader/aliases');
const { compileTypeScript } = require('./cli/loader/typescript');

const OWN = ['framework', 'runtime', 'cli', 'generators'].map((dir) => path.join(__dirname, dir) + path.sep);
const TESTS = `${path.sep}tests${path.sep}`;
const mapAll = process.sourceMapsEnabled === true;
let mapsOn = mapAll;

/** Whether a file gets a source map: anything but trellis's own code outside its tests. */
function mapped(filename) {
  if (mapAll) return true;
  const own = OWN.find((dir) => filename.startsWith(dir));
  return own === undefined || filename.includes(TESTS, own.length - 1);
}

Module._extensions['.ts'] = function loadTypeScript(module, filename) {
  const map = mapped(filename);
  if (map && !mapsOn) {
    mapsOn = true;
    process.setSourceMapsEnabled(true);
  }
  module._compile(compileTypeScript(fs.readFileSync(filename, 'utf8'), filename, map), filename);
};

const root = __dirname;
const ownModules = path.join(root, 'node_modules') + path.sep;
// A checkout runs trellis's TypeScript sources; installed, the trellis package's compiled dist/.
const checkout = fs.existsSync(path.join(root, 'framework', 'index.ts'));
const trellisRoot = checkout ? root : installedTrellis();
const ALIASES = trellisRoot === undefined ? new Map() : sharedAliases(checkout ? '.' : './dist');
// Aliases resolve as a file at the top of the trellis package would resolve them.
const base = trellisRoot === undefined ? module : Object.assign(new Module(path.join(trellisRoot, 'index.js')), {
  filename: path.join(trellisRoot, 'index.js'),
  paths: Module._nodeModulePaths(trellisRoot),
});

/** The folder of the trellis package this CLI finds from its own (undefined when none is installed: `create` needs none). */
function installedTrellis() {
  try {
    return path.dirname(require.resolve('trellis/package.json', { paths: [root] }));
  } catch {
    return undefined;
  }
}

if (!Module._resolveFilename.trellisAliases) {
  const resolveFilename = Module._resolveFilename;
  const resolved = new Map();
  /** @type {typeof resolveFilename} */
  const hooked = function resolveWithAliases(request, parent, ...rest) {
    const target = ALIASES.get(request);
    // Libraries inside our node_modules keep their own resolution (they may pin other versions).
    if (target && !(parent && parent.filename && parent.filename.startsWith(ownModules))) {
      let file = resolved.get(request);
      if (file === undefined) resolved.set(request, (file = resolveFilename.call(this, target, base, false)));
      return file;
    }
    return resolveFilename.call(this, request, parent, ...rest);
  };
  hooked.trellisAliases = true;
  Module._resolveFilename = hooked;
}
