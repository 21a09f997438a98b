import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClassDocs, TypeTable } from '../framework/inspect';
import { CONFIG_FILE } from './config';
import type { ConfigSnapshot } from './config-snapshot';
import { exportsOf, type Discovery, type Found } from './discover';
import { messages } from './messages';
import { ProjectError } from './project-error';
import { sourceFiles } from './source-files';

/**
 * The manifest's name in a build folder.
 *
 * @example
 * ```ts
 * const manifest = JSON.parse(readFileSync(join('dist', MANIFEST_FILE), 'utf8'));
 * ```
 */
export const MANIFEST_FILE = 'trellis.manifest.json';

/**
 * The manifest format this runtime reads; a build of another format is refused (rebuild it).
 *
 * @example
 * ```ts
 * if (manifest.format !== MANIFEST_FORMAT) throw new Error('rebuild with trellis build');
 * ```
 */
export const MANIFEST_FORMAT = 1;

/** A compiled file of `services/`, `middleware/`, `plugins/` or `routers/`, and the classes (plug-ins) `run` takes from it. */
export interface ManifestModule {
  /** Relative to the build folder, with `/` (`routers/tasks.js`). */
  file: string;
  /** The export names of the classes (of `plugins/`: the plug-ins) found in it (`default` for a default export), in discovery order. */
  classes: string[];
}

/** A middleware file: its name for `config.yaml`, and the export `config.yaml` means by it. */
export interface ManifestMiddleware extends ManifestModule {
  /** `timing` for `middleware/timing.js`. */
  name: string;
  /** The default export, else the only middleware class; null when ambiguous (config.yaml may not name it). */
  main: string | null;
}

/**
 * What `trellis build` found in a project, written next to the compiled files as `trellis.manifest.json`:
 * the files to load, in `trellis run`'s order (services, middleware, plug-ins, routers; every file, so one loaded only
 * for its side effects still is), the classes to take from each (the WebSocket gateways of `routers/` too), the routers' doc comments and the handlers' source types.
 */
export interface BuildManifest {
  format: typeof MANIFEST_FORMAT;
  /** The trellis version that made the build. */
  trellis: string;
  /** `config.yaml` when the project has one (copied into the build), else null: defaults apply. */
  config: string | null;
  /** config.yaml parsed at build time, read at start without a YAML parser (absent when the file had an issue). */
  configSnapshot?: ConfigSnapshot;
  services: ManifestModule[];
  middleware: ManifestMiddleware[];
  /** Absent from a build made before plug-ins: none is registered. */
  plugins?: ManifestModule[];
  routers: ManifestModule[];
  /**
   * The files of `routers/` that export WebSocket gateway classes, and those classes (each file is loaded with the
   * routers). Absent from a build made before gateways: none is registered.
   */
  gateways?: ManifestModule[];
  /** The doc comments of the classes of each compiled file that declares classes, by file relative to the build. */
  docComments: Record<string, ClassDocs[]>;
  /**
   * The handlers' return types and statuses read from the sources (files relative to the build), given to the app
   * as `sourceTypes`: a built app has no TypeScript. Absent when the build could not read them
   * (`ts-json-schema-generator` not installed): the docs then have runtime metadata only.
   */
  sourceTypes?: TypeTable;
}

/**
 * The manifest of a build folder whose compiled files `discovery` found (by `discover(dir)`): the export
 * name of each class is looked up in its module, already loaded by the discovery.
 *
 * @example
 * ```ts
 * const discovery = discover(distDir);
 * const manifest = createManifest(distDir, discovery, { trellis: '0.1.0', docComments: {} });
 * writeFileSync(join(distDir, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
 * ```
 */
export function createManifest(
  dir: string,
  discovery: Discovery,
  meta: Pick<BuildManifest, 'trellis' | 'docComments' | 'configSnapshot' | 'sourceTypes'>,
): BuildManifest {
  const nameOf = (found: Found) => exportName(dir, found.file, found.cls);
  const modules = (folder: string, found: Found[]): ManifestModule[] =>
    sourceFiles(dir, folder).map((file) => ({ file, classes: found.filter((f) => f.file === file).map(nameOf) }));
  const middleware = sourceFiles(dir, 'middleware').flatMap((file): ManifestMiddleware[] => {
    const entry = discovery.middleware.find((m) => m.file === file);
    if (!entry) return [];
    const named = (cls: Found['cls']) => nameOf({ cls, file });
    return [{ file, name: entry.name, classes: entry.classes.map(named), main: entry.main ? named(entry.main) : null }];
  });
  return {
    format: MANIFEST_FORMAT,
    trellis: meta.trellis,
    config: existsSync(join(dir, CONFIG_FILE)) ? CONFIG_FILE : null,
    ...(meta.configSnapshot && { configSnapshot: meta.configSnapshot }),
    services: modules('services', discovery.services),
    middleware,
    plugins: sourceFiles(dir, 'plugins').map((file) => ({
      file,
      classes: (discovery.plugins ?? []).filter((found) => found.file === file).map((found) => exportName(dir, file, found.plugin)),
    })),
    routers: modules('routers', discovery.routers),
    gateways: gatewayModules(dir, discovery),
    docComments: meta.docComments,
    ...(meta.sourceTypes && { sourceTypes: meta.sourceTypes }),
  };
}

// Only the files that hold gateways: every file of routers/ is listed (and loaded) as a router module already.
function gatewayModules(dir: string, discovery: Discovery): ManifestModule[] {
  const found = discovery.gateways ?? [];
  return sourceFiles(dir, 'routers')
    .map((file) => ({ file, classes: found.filter((f) => f.file === file).map((f) => exportName(dir, file, f.cls)) }))
    .filter((entry) => entry.classes.length > 0);
}

function exportName(dir: string, file: string, value: unknown): string {
  const exports = exportsOf(require(join(dir, file)));
  const name = Object.keys(exports).find((key) => exports[key] === value);
  if (name === undefined) throw new Error(`${file}: ${(value as { name?: string }).name} is not exported`);
  return name;
}

/**
 * Reads `<dir>/trellis.manifest.json`; a folder without one, or with one this runtime cannot read, is a
 * `ProjectError` saying what to do.
 *
 * @example
 * ```ts
 * const manifest = readManifest(__dirname);
 * manifest.routers.map((m) => m.file); // ['routers/tasks.js', ...]
 * ```
 */
export function readManifest(dir: string, display: string): BuildManifest {
  const file = join(dir, MANIFEST_FILE);
  if (!existsSync(file)) throw new ProjectError(messages.build.noManifest(display));
  let manifest: Partial<BuildManifest>;
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8')) as Partial<BuildManifest>;
  } catch (error) {
    throw new ProjectError(messages.build.badManifest(join(display, MANIFEST_FILE), error instanceof Error ? error.message : String(error)));
  }
  if (manifest?.format !== MANIFEST_FORMAT) {
    throw new ProjectError(messages.build.otherFormat(join(display, MANIFEST_FILE), String(manifest?.trellis ?? 'another version')));
  }
  return manifest as BuildManifest;
}
