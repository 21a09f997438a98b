import { messages } from './messages';
import { ProjectError } from './project-error';
import { serve, type ServeOptions } from './serve';

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
export async function runBuild(dir: string, options: Omit<ServeOptions, 'build'> = {}): Promise<number> {
  try {
    await serve(dir, { ...options, build: true });
    return 0;
  } catch (error) {
    const known = error instanceof ProjectError;
    const message = known ? error.message : messages.build.unexpected(error instanceof Error ? error.message : String(error));
    process.stderr.write(`trellis: ${message}\n`);
    return known ? error.exitCode : 1;
  }
}
