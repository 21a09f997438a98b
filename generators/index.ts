/**
 * Project and file generators behind `trellis create` and `trellis add`. Each takes its options as data and
 * writes files (or, with `dryRun`, only reports them): no prompts, no terminal, so tests call them directly.
 *
 * @example
 * ```ts
 * import { addArtifact, createProject, projectDefaults, resolveExamples } from './generators';
 * const defaults = projectDefaults('demo');
 * await createProject({ cwd: '/tmp', name: 'demo', ...defaults, examples: resolveExamples(defaults.examples) });
 * await addArtifact({ kind: 'router', name: 'orders', dir: '/tmp/demo' });
 * ```
 */
export { createProject } from './create-project';
export type { CreateRequest, CreateResult } from './create-project';
export { addArtifact } from './add-artifact';
export type { AddRequest, AddResult } from './add-artifact';
export { addResource } from './add-resource';
export type { AddResourceRequest, AddResourceResult } from './add-resource';
export { resourceNames } from './resource-names';
export type { ResourceNames } from './resource-names';
export { checkTarget } from './target';
export { initGit } from './git';
export type { GitOutcome } from './git';
export { EXAMPLES, EXAMPLE_NAMES, OPTIONAL_EXAMPLES, resolveExamples } from './examples';
export type { ExampleName } from './examples';
export { AUTH_KINDS, checkAuth, checkPort, projectDefaults } from './project-data';
export type { AuthKind, ProjectOptions } from './project-data';
export { artifactNames, checkBasePath, checkProjectName, folderOf } from './names';
export type { ArtifactKind, ArtifactNames } from './names';
export { GeneratorError } from './generator-error';
export type { GeneratorFailure } from './generator-error';
export type { WrittenFile } from './plop-runner';
export { installDependencies, INSTALL_COMMAND, npmFailure } from './install';
export type { InstallOutcome } from './install';
export { defaultTrellisRange, projectDependencies, projectDevDependencies } from './dependencies';
export { trellisSpecs, VENDOR_DIR } from './trellis-spec';
export type { TrellisSpecs } from './trellis-spec';
