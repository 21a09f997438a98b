import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type * as Esbuild from 'esbuild';
import { CliError } from '../cli-error';
import { asciiOnly } from './ascii-only';
import { installedPackage } from './installed-package';
import { messages } from '../messages';

/** The bundle `main.js` runs when it is there: trellis's runtime and the libraries it shares with the app. */
export const BUNDLE_FILE = 'trellis.bundle.js';
/** V8's code cache of the bundle, written by the build's Node: a start with the same version skips compiling it. */
export const CODE_CACHE_FILE = 'trellis.bundle.cache';

// Left out of the bundle and required from node_modules as without one, each for a reason:
const EXTERNAL = new Set([
  // Compilers and the source-type reader: the build reads sources, the built app never does.
  'typescript',
  'ts-json-schema-generator',
  '@swc/core',
  'esbuild',
  // pino starts its transports' worker threads from their files.
  'pino',
  'pino-pretty',
  'thread-stream',
  // Express middleware runs on Express's own request and response prototypes: the app's copy of express.
  'express',
  // Replaced in Node's module cache by a stand-in until a phone number is checked (runtime/deferred-phone-numbers.ts).
  'libphonenumber-js',
  // trellis/database's optional peers, installed only by projects with a database: required when it opens one,
  // and `Kysely` must be the class the app's services import (their constructor's type is the injection token).
  'kysely',
  'pg',
  '@electric-sql/pglite',
]);

// Shared with the app whether or not its files import them, for the libraries it uses that do: the libraries whose
// state the framework shares with the app (cli/loader/aliases.js, which register.js and the package's runtime
// bundle use; a test holds the two lists together).
export const SHARED_STATE = ['class-validator', 'class-transformer', 'reflect-metadata', 'prom-client'];

/** `class-validator/cjs/x` -> `class-validator`; `@scope/name/x` -> `@scope/name`. */
const packageOf = (id: string) => id.split('/', id.startsWith('@') ? 2 : 1).join('/');
const isBare = (id: string) => !/^[./]/.test(id) && !isBuiltin(id);

/**
 * The esbuild the project installed (its `esbuild` devDependency), else undefined: the build is then served
 * from node_modules without a bundle.
 */
export function loadEsbuild(projectDir: string): typeof Esbuild | undefined {
  try {
    return require(require.resolve('esbuild', { paths: [projectDir] })) as typeof Esbuild;
  } catch {
    return undefined;
  }
}

/**
 * Bundles trellis's runtime, with what it requires from its dependencies, into `<outDir>/trellis.bundle.js`,
 * and writes V8's code cache of it by loading the build once (`node main.js --write-code-cache`). One file
 * read and compiled from the cache replaces some 450 modules looked up, read and compiled at each start.
 *
 * The compiled project files stay files (their stack traces, and the file each route is declared in, are
 * theirs): what they import of trellis and its dependencies (`trellis`, `class-validator`, ...) is listed in the
 * bundle, which `main.js` puts in Node's module cache, so they and the framework share one copy. What trellis
 * reads next to its own files (`__dirname`: the vendored docs assets) is read from the installed package.
 */
export async function bundleBuild(esbuild: typeof Esbuild, outDir: string, files: readonly string[]): Promise<void> {
  const trellisRoot = installedPackage(outDir, 'trellis');
  if (!trellisRoot) throw new CliError(messages.build.noTrellis);
  const dependencies = Object.keys((JSON.parse(readFileSync(join(trellisRoot, 'package.json'), 'utf8')) as { dependencies?: object }).dependencies ?? {});
  const bundled = new Set(['trellis', ...dependencies].filter((name) => !EXTERNAL.has(name)));
  const ids = [...new Set([...SHARED_STATE, ...importedIds(esbuild, files)])];
  const shared = ids.filter((id) => bundled.has(packageOf(id)) && installedPackage(outDir, packageOf(id))).sort();
  const fail = (reason: string) => {
    // What is left is served without a bundle; the build still fails.
    for (const file of [BUNDLE_FILE, CODE_CACHE_FILE]) rmSync(join(outDir, file), { force: true });
    return new CliError(messages.build.bundleFailed(reason.trim()));
  };
  let code: string;
  try {
    ({ code } = await bundleTrellis(esbuild, { entry: entrySource(shared), resolveDir: outDir, trellisRoot }));
  } catch (error) {
    const { errors } = error as Partial<Esbuild.BuildFailure>;
    throw fail(errors?.length ? esbuild.formatMessagesSync(errors.slice(0, 1), { kind: 'error' })[0] : String(error));
  }
  writeFileSync(join(outDir, BUNDLE_FILE), code);
  const cache = spawnSync(process.execPath, [join(outDir, 'main.js'), '--write-code-cache'], { cwd: outDir, encoding: 'utf8' });
  if (cache.status !== 0) throw fail(cache.stderr || cache.error?.message || `exit ${cache.status}`);
}

/** What {@link bundleTrellis} made: the bundle's code, in ASCII, and the packages in it, by name, with their versions. */
export interface TrellisBundle {
  code: string;
  packages: Record<string, string[]>;
}

/**
 * Bundles `entry` (CommonJS source whose ids resolve from `resolveDir`) as trellis's runtime is bundled, for
 * a build's `main.js` and for the package's own runtime bundle (`trellis run`): CommonJS for Node 20, the
 * {@link EXTERNAL} packages left to the bundle's `require`, trellis's files under `trellisRoot` that read
 * `__dirname` given the installed package's folders (`__trellis`, from the loader), written in ASCII.
 * Rejects with esbuild's failure.
 */
export async function bundleTrellis(
  esbuild: typeof Esbuild,
  { entry, resolveDir, trellisRoot }: { entry: string; resolveDir: string; trellisRoot: string },
): Promise<TrellisBundle> {
  const { outputFiles, metafile } = await esbuild.build({
    stdin: { contents: entry, resolveDir, sourcefile: 'trellis-bundle-entry.js', loader: 'js' },
    outfile: join(resolveDir, BUNDLE_FILE),
    // The paths esbuild writes in the bundle's comments are relative to it: none names the machine's folders.
    absWorkingDir: resolveDir,
    write: false,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // No `keepNames`: it defines `name` on every closure as it is made, per request too (1.6 µs of a POST).
    // Every module bundled is CommonJS, wrapped in its own function, so esbuild renames nothing.
    metafile: true,
    logLevel: 'silent',
    plugins: [externals(), ownPaths(trellisRoot)],
  });
  return { code: asciiOnly(outputFiles[0].text), packages: packagesOf(Object.keys(metafile.inputs).map((input) => resolve(resolveDir, input))) };
}

// Each package a bundled file belongs to (the folder after its last node_modules/), by name, with its versions.
function packagesOf(files: readonly string[]): Record<string, string[]> {
  const marker = `${sep}node_modules${sep}`;
  const dirs = new Set<string>();
  for (const file of files) {
    const at = file.lastIndexOf(marker);
    if (at < 0) continue;
    const rest = file.slice(at + marker.length).split(sep);
    dirs.add(file.slice(0, at + marker.length) + rest.slice(0, rest[0].startsWith('@') ? 2 : 1).join(sep));
  }
  const packages: Record<string, string[]> = {};
  for (const dir of [...dirs].sort()) {
    const { name, version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; version: string };
    const versions = (packages[name] ??= []);
    if (!versions.includes(version)) versions.push(version);
  }
  return packages;
}

// The packages the compiled files import (each import once, by the id written).
function importedIds(esbuild: typeof Esbuild, files: readonly string[]): string[] {
  const { metafile } = esbuild.buildSync({ entryPoints: [...files], bundle: true, write: false, metafile: true, packages: 'external', platform: 'node', outdir: 'out', logLevel: 'silent' });
  const ids = Object.values(metafile.inputs).flatMap((input) => input.imports.filter((i) => i.external && isBare(i.path)).map((i) => i.path));
  return [...new Set(ids)].sort();
}

// `main.js` reads `runtime` and `shared`; each shared module is loaded on first use.
function entrySource(shared: readonly string[]): string {
  const lines = shared.map((id) => `  ${JSON.stringify(id)}: () => require(${JSON.stringify(id)}),`);
  return `exports.runtime = require('trellis/runtime');\nexports.shared = {\n${lines.join('\n')}\n};\n`;
}

function externals(): Esbuild.Plugin {
  return {
    name: 'trellis-externals',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, ({ path }) => (isBare(path) && EXTERNAL.has(packageOf(path)) ? { path, external: true } : undefined));
    },
  };
}

// trellis's own files that read `__dirname`/`__filename` (its vendored docs assets) get the installed
// package's folders: `__trellis` is the package's folder, given by main.js.
function ownPaths(trellisRoot: string): Esbuild.Plugin {
  const own = `${trellisRoot}${sep}dist${sep}`;
  return {
    name: 'trellis-own-paths',
    setup(build) {
      build.onLoad({ filter: /\.js$/ }, ({ path }) => {
        if (!path.startsWith(own) || path.slice(own.length).includes(`node_modules${sep}`)) return undefined;
        const contents = readFileSync(path, 'utf8');
        if (!/\b__(dirname|filename)\b/.test(contents)) return { contents, loader: 'js' };
        const at = (file: string) => `require('node:path').join(__trellis, ${JSON.stringify(relative(trellisRoot, file).split(sep).join('/'))})`;
        return { contents: `var __dirname = ${at(dirname(path))}, __filename = ${at(path)};\n${contents}`, loader: 'js' };
      });
    },
  };
}
