import { migrateDatabase } from './database';
import { messages } from './messages';
import { loadBuildModules, openBuild } from './load-build';
import { ProjectError } from './project-error';
import { serve, type ServeOptions } from './serve';
import { shareModules, type SharedModules } from './shared-modules';

/**
 * Options of {@link runBuild}: `serve`'s, and what a bundle shares with the build's files.
 *
 * @example
 * ```ts
 * runBuild(__dirname, { port: 8080 }).then((code) => process.exit(code));
 * ```
 */
export interface RunBuildOptions extends Omit<ServeOptions, 'build'> {
  /** The modules `trellis build`'s bundle carries, put where the build's files find them: see `shareModules`. */
  shared?: SharedModules;
  /**
   * Apply the migrations (`dist/migrations`) the database lacks and resolve, instead of serving: `node dist/main.js
   * --migrate`, the deploy step where the CLI is not installed (`npm ci --omit=dev`).
   */
  migrate?: boolean;
}

/**
 * What a build's `main.js` runs: serves the build folder `dir` from its manifest as `trellis run` serves a
 * project (config.yaml with the environment, banner, access log, graceful shutdown, crash handling) and
 * resolves to the exit code: 0 after a graceful stop, else the error's, its line (`trellis: ...`) written
 * on stderr. The caller exits with it, since project code may leave a timer or socket open.
 *
 * @example
 * ```js
 * // dist/main.js, as `trellis build` writes it
 * require('trellis/runtime').runBuild(__dirname).then((code) => process.exit(code));
 * ```
 */
export async function runBuild(dir: string, { shared, migrate, ...options }: RunBuildOptions = {}): Promise<number> {
  try {
    if (shared) shareModules(dir, shared);
    if (migrate) await migrateDatabase(openBuild(dir).project, (line) => void process.stdout.write(`${line}\n`));
    else await serve(dir, { ...options, build: true });
    return 0;
  } catch (error) {
    return failed(error);
  }
}

/**
 * What a bundled build's `main.js --write-code-cache` runs before writing the cache (`trellis build` runs it):
 * shares the bundle's modules and loads the build's files without serving (see `loadBuildModules`). Returns
 * the exit code as `runBuild` does.
 *
 * @example
 * ```js
 * const code = runtime.prepareBuild(__dirname, { shared });
 * ```
 */
export function prepareBuild(dir: string, { shared }: Pick<RunBuildOptions, 'shared'> = {}): number {
  try {
    if (shared) shareModules(dir, shared);
    loadBuildModules(dir);
    return 0;
  } catch (error) {
    return failed(error);
  }
}

function failed(error: unknown): number {
  const known = error instanceof ProjectError;
  const message = known ? error.message : messages.build.unexpected(error instanceof Error ? error.message : String(error));
  process.stderr.write(`trellis: ${message}\n`);
  return known ? error.exitCode : 1;
}
