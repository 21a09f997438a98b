/**
 * trellis/runtime: what a production start needs. `serve` opens a trellis project (a folder with `config.yaml`,
 * `routers/`, `services/`, `middleware/`), assembles the app and serves it with the banner, the access log, graceful
 * shutdown and crash handling; `runBuild`/`prepareBuild` are what a built app's `node dist/main.js` calls;
 * `ProjectError` is what a project that cannot start throws; `createLogger` makes the logger the app logs
 * through. It depends on the framework only, never on the CLI or a TypeScript compiler (when `typescript` is
 * installed, the framework reads declarations with its parser to give the lines of the problems it reports).
 * What trellis-cli alone uses (discovery, the build manifest, config snapshots, problem formatting) is in
 * `trellis/internal`, which is not part of the public face (docs/reference/entry-points.md).
 *
 * @example
 * ```ts
 * import { serve, ProjectError } from 'trellis/runtime';
 *
 * serve('.', { port: 8000 }).catch((error) => {
 *   process.stderr.write(`trellis: ${error instanceof ProjectError ? error.message : error}\n`);
 *   process.exit(1);
 * });
 * ```
 */
// First, before the framework loads class-validator: libphonenumber-js then loads on the first phone number checked.
import './deferred-phone-numbers';
export { serve } from './serve';
export type { ServeOptions } from './serve';
export { prepareBuild, runBuild } from './run-build';
export type { RunBuildOptions } from './run-build';
export { ProjectError } from './project-error';
export { createLogger } from '../framework/internal';
export type { Logger, LoggerOptions } from '../framework/internal';
