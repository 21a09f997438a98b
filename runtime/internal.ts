/**
 * trellis/internal: the plumbing trellis-cli shares with the runtime (opening and discovering a project, the build
 * manifest and config snapshot, problems and their formatting, the messages a supervisor prints, the module
 * sharing and caches of `trellis run`) and the framework's own (framework/internal.ts). Private to trellis-cli:
 * no semver promise, any release may change it, and the two packages are released together. An application
 * imports `trellis`, `trellis/param`, `trellis/testing`, `trellis/runtime` and the other public entries
 * instead (docs/reference/entry-points.md).
 *
 * @example
 * ```ts
 * import { discover, openProject } from 'trellis/internal';
 *
 * const project = openProject('.');
 * const { routers } = discover(project.dir);
 * ```
 */
// First, before the framework loads class-validator, as trellis/runtime does: the CLI may import this entry first.
import './deferred-phone-numbers';

export * from '../framework/internal';
export { openProject, configProblems, projectPath, shownPath } from './project';
export type { OpenOptions, Project } from './project';
export { CONFIG_FILE } from './config';
export { addressFromEnvironment, DOTENV_FILE } from './environment';
export { hostCheck, portCheck } from './config-schema';
export { configValueProblems, settingsProblems } from './config-value';
export { formatProblem } from './problem';
export type { Problem } from './problem';
export { discover } from './discover';
export type { Discovery, Found } from './discover';
export { sourceFiles } from './source-files';
export { createApp, globalMiddleware, includeRouter, problemAt, registerPlugins } from './assemble';
export { registerFeatures } from './features';
export { mountAssets } from './assets';
export { databaseLabel, databaseOptions, migrateDatabase, missingPackages, MIGRATIONS_DIR, registerDatabase } from './database';
export { loadProject } from './load';
export { createManifest, MANIFEST_FILE } from './manifest';
export { createConfigSnapshot } from './config-snapshot';
export { shareModules } from './shared-modules';
export type { SharedModules } from './shared-modules';
export type { ListeningMessage } from './serve';
export type { StopMessage } from './shutdown';
export { messages as runtimeMessages } from './messages';
