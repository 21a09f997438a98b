import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { version } from 'trellis/package.json';
import {
  CONFIG_FILE,
  createConfigSnapshot,
  createManifest,
  discover,
  formatProblem,
  MANIFEST_FILE,
  MIGRATIONS_DIR,
  openProject,
  precompileResponseShapes,
  sourceFiles,
} from 'trellis/internal';
import type { TypeTable } from 'trellis/inspect';
import { CliError } from '../cli-error';
import { messages } from '../messages';
import { copyAssets } from './assets';
import { compileProject, SHOWN_ERRORS } from './compile';
import { bundleBuild, loadEsbuild } from './bundle';
import { buildDocComments } from './doc-comments';
import { buildSourceTypes } from './source-types';
import { MAIN_JS, PACKAGE_JSON } from './main-js';
import { loadTypeScript } from './typescript';

/** The build folder's name inside the project. */
export const OUT_DIR = 'dist';
/** The folders whose files `trellis run` loads, in its order: the roots of the compilation. */
const FOLDERS = ['services', 'middleware', 'plugins', 'routers'];

export interface BuildOutput {
  /** Where a line goes: `out` for the summary, `err` for each error. */
  out(line: string): void;
  err(line: string): void;
}

/**
 * `trellis build [path]`: type-checks and compiles the project into `<path>/dist` (cleared first), copies
 * config.yaml and the assets, loads the compiled files as `trellis run` would to find its routers, WebSocket gateways,
 * services and middleware, and writes `trellis.manifest.json` (those, the routers' doc comments, the handlers' return
 * types and statuses read from the sources, and config.yaml parsed)
 * and `main.js`; with esbuild installed, bundles trellis for `main.js` (see `bundleBuild`).
 * A type error, or a file that throws while loading, fails it with `file:line` lines.
 */
export async function buildProject(path: string, output: BuildOutput): Promise<void> {
  const project = openProject(path);
  const outDir = join(project.dir, OUT_DIR);
  const shownOut = join(project.display, OUT_DIR);
  const ts = loadTypeScript(project.dir);
  // The migrations too: a built app checks them at start (dist/migrations), and `trellis db migrate` on the build applies them.
  const roots = [...FOLDERS, MIGRATIONS_DIR].flatMap((folder) => sourceFiles(project.dir, folder));
  const moduleScope = isModuleScope(project.dir);
  const clear = () => rmSync(outDir, { recursive: true, force: true });
  const compiled = compileProject(ts, project.dir, roots, outDir, project.display, !moduleScope, clear);
  if (!compiled.ok) {
    for (const line of compiled.errors) output.err(line);
    if (compiled.count > SHOWN_ERRORS) output.err(messages.build.moreErrors(compiled.count - SHOWN_ERRORS));
    throw new CliError(messages.build.typeErrors(compiled.count));
  }
  copyAssets(project, outDir);
  if (moduleScope) writeFileSync(join(outDir, 'package.json'), PACKAGE_JSON);

  const discovery = discover(outDir);
  if (discovery.failures.length) throw new CliError(formatProblem(shownOut, discovery.failures[0]));
  const docComments = buildDocComments(project.dir, outDir, compiled.files);
  const config = join(outDir, CONFIG_FILE);
  const configSnapshot = existsSync(config) ? createConfigSnapshot(readFileSync(config, 'utf8')) : undefined;
  const sourceTypes = buildSourceTypes(project.dir, outDir, compiled.files);
  const manifest = createManifest(outDir, discovery, { trellis: version, docComments, configSnapshot, sourceTypes });
  writeFileSync(join(outDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(outDir, 'main.js'), MAIN_JS);
  // The built app's first start then finds its response serializers compiled (fast-json-stringify's compiler
  // and ajv are not loaded to serve).
  precompileResponseShapes(discovery.routers.map((found) => found.cls), sourceTypes && underBuild(sourceTypes, outDir));
  const esbuild = loadEsbuild(project.dir);
  if (esbuild) await bundleBuild(esbuild, outDir, compiled.files.map((file) => join(project.dir, file.output)));

  const middleware = discovery.middleware.reduce((count, m) => count + m.classes.length, 0);
  const gateways = discovery.gateways?.length ?? 0;
  output.out(messages.build.built(shownOut, discovery.routers.length, gateways, discovery.services.length, middleware, compiled.files.length));
  if (!esbuild) output.out(messages.build.noBundle);
  output.out(messages.build.next(join(shownOut, 'main.js')));
}

// The table keyed by files relative to the build, as the manifest has it, keyed by absolute path again.
function underBuild(table: TypeTable, outDir: string): TypeTable {
  return { files: Object.fromEntries(Object.entries(table.files).map(([file, methods]) => [join(outDir, file), methods])), schemas: table.schemas };
}

function isModuleScope(dir: string): boolean {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return false;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { type?: unknown }).type === 'module';
  } catch {
    return false;
  }
}
