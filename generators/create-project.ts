import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { planBlueprint, planOverlay, type BlueprintFile } from './blueprint';
import { isExcluded } from './examples';
import { runBlueprint, type WrittenFile } from './plop-runner';
import { projectData, type ProjectOptions } from './project-data';
import { removedOnSignal } from './signal-cleanup';
import { checkTarget, moveIntoPlace } from './target';
import { trellisSpecs, VENDOR_DIR } from './trellis-spec';

export interface CreateRequest extends ProjectOptions {
  /** The folder the project folder is created in. */
  cwd: string;
  /** Write into an existing non-empty folder, replacing the files the blueprint has. */
  force?: boolean;
  /** Render (in the system temp folder), report the files, write nothing near the target. */
  dryRun?: boolean;
}

export interface CreateResult {
  /** Absolute path of the project folder. */
  root: string;
  /** Every file, relative to `root`, in blueprint order. */
  files: WrittenFile[];
}

/**
 * Renders the sample project into a temporary sibling of `<cwd>/<name>` and renames it into place, so a
 * failure leaves no half-made project. Bad names, non-empty targets (without `force`) and a local
 * `trellisSpec` that does not exist are refused before anything is written. A tarball `trellisSpec` is copied
 * into the project's vendor/ with trellis-cli's beside it (see `trellisSpecs`). Installs nothing: see
 * `installDependencies`.
 *
 * @example
 * ```ts
 * const { root, files } = await createProject({ cwd: process.cwd(), name: 'demo', title: 'Demo API',
 *   description: 'Demo', port: 8000, examples: resolveExamples([]) });
 * ```
 */
export async function createProject(request: CreateRequest): Promise<CreateResult> {
  const root = checkTarget(request.cwd, request.name, request.force);
  const files = projectPlan(request).filter((file) => !isExcluded(file.target, request.examples));
  const specs = trellisSpecs(request.trellisSpec, request.cwd, root);
  const data = projectData(request, specs);
  const staging = mkdtempSync(request.dryRun ? join(tmpdir(), 'trellis-') : join(dirname(root), `.${request.name}-trellis-`));
  try {
    return await removedOnSignal(staging, async () => {
      const written = [...(await runBlueprint('project', files, data, staging)), ...vendor(specs.vendored, staging)];
      if (!request.dryRun) {
        checkTarget(request.cwd, request.name, request.force); // the folder may have appeared while rendering
        moveIntoPlace(staging, root, written);
      }
      return { root, files: written };
    });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

// The project blueprint with the overlays the options ask for, in this order: project-db, project-auth, then
// project-db-auth (the files that differ when both are chosen, e.g. the tasks test on a database with tokens).
function projectPlan({ db = false, auth = 'none' }: ProjectOptions): BlueprintFile[] {
  const jwt = auth === 'jwt';
  const overlays = [db && 'project-db', jwt && 'project-auth', db && jwt && 'project-db-auth'] as const;
  return overlays.reduce<BlueprintFile[]>(
    (plan, overlay) => (overlay ? planOverlay(plan, planBlueprint(overlay)) : plan),
    planBlueprint('project'),
  );
}

// The tarballs the project depends on, copied into its vendor/ folder.
function vendor(tarballs: readonly string[], staging: string): WrittenFile[] {
  if (tarballs.length > 0) mkdirSync(join(staging, VENDOR_DIR));
  return tarballs.map((tarball) => {
    const path = `${VENDOR_DIR}/${basename(tarball)}`;
    copyFileSync(tarball, join(staging, path));
    return { path, bytes: statSync(tarball).size };
  });
}
