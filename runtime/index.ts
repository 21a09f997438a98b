/**
 * trellis/runtime: what serves a trellis project (a folder with `config.yaml`, `routers/`, `services/`,
 * `middleware/`) in production and under `trellis run`: opening the project, discovering its classes,
 * assembling the app, listening, the banner, the access log, graceful shutdown and crash handling.
 * It depends on the framework only, never on the CLI or a TypeScript compiler (when `typescript` is installed, the
 * framework reads declarations with its parser to give the lines of the problems it reports).
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
export { prepareBuild, runBuild } from './run-build';
export type { RunBuildOptions } from './run-build';
export { loadBuild, loadBuildModules } from './load-build';
export { shareModules } from './shared-modules';
export type { SharedModules } from './shared-modules';
export { createManifest, readManifest, MANIFEST_FILE, MANIFEST_FORMAT } from './manifest';
export type { BuildManifest, ManifestModule, ManifestMiddleware } from './manifest';
export { createConfigSnapshot, readConfigSnapshot } from './config-snapshot';
export type { ConfigSnapshot } from './config-snapshot';
export type { ServeOptions, ListeningMessage } from './serve';
export type { StopMessage } from './shutdown';
export { ProjectError } from './project-error';
export { messages as runtimeMessages } from './messages';
export { loadProject, startProject } from './load';
export type { LoadedProject } from './load';
export { openProject, configProblems, projectPath } from './project';
export type { OpenOptions, Project } from './project';
export { CONFIG_FILE } from './config';
export { addressFromEnvironment, DOTENV_FILE, loadDotEnv } from './environment';
export type { Environment } from './env-lookup';
export type { LoadedConfig } from './config';
export { hostCheck, portCheck } from './config-schema';
export type { ProjectSettings } from './config-schema';
export { formatProblem } from './problem';
export type { Problem } from './problem';
export { discover } from './discover';
export { sourceFiles } from './source-files';
export type { Discovery, Found, FoundMiddleware } from './discover';
export { createApp, globalMiddleware, includeRouter } from './assemble';
export type { AppOverrides } from './assemble';
export { mountAssets } from './assets';
export { configValueProblem, configValueProblems, settingsProblems } from './config-value';
