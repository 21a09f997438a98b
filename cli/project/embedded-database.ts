import { isAbsolute, relative, sep } from 'node:path';
import { configProblems, projectPath, shownPath, type Project } from 'trellis/internal';
import { CliError } from '../cli-error';
import { messages } from '../messages';

/**
 * Whether the project serves from the embedded database (a `database:` section without a URL): one process at a
 * time may open it, so a reload stops the old version before starting the new one, and `--workers` refuses it.
 * False while config.yaml has a problem (the start reports that).
 */
export function usesEmbeddedDatabase(project: Project): boolean {
  return configProblems(project).length === 0 && project.config.settings.database?.url === '';
}

/**
 * Stops `trellis run --workers N` (N > 1) on the embedded database before anything forks: one line naming
 * DATABASE_URL. Several processes would each open the folder (the second is refused by its lock).
 *
 * @example
 * ```ts
 * refuseWorkersOnEmbedded(openProject('.'), 4); // CliError: --workers 4 needs a database server: ...
 * ```
 */
export function refuseWorkersOnEmbedded(project: Project, workers: number): void {
  if (workers > 1 && usesEmbeddedDatabase(project)) {
    throw new CliError(messages.run.workersEmbedded(workers, shownPath(project, project.config.settings.database!.data_dir)));
  }
}

/**
 * Whether a path (relative to the project, with `/`) is the embedded database's folder, in it, its lock file, or a
 * folder it was created in (`data` for data/db): what `--reload` must not take for an edit (every write of the app
 * changes them).
 *
 * @example
 * ```ts
 * const isData = embeddedDatabaseFiles(project);
 * isData('data/db/base/1/16384'); // true
 * ```
 */
export function embeddedDatabaseFiles(project: Project): (path: string) => boolean {
  const dataDir = project.config.settings.database?.data_dir;
  const inside = dataDir === undefined ? '' : relative(project.dir, projectPath(project, dataDir));
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return () => false;
  const folder = inside.split(sep).join('/');
  return (path) => path === folder || path.startsWith(`${folder}/`) || path === `${folder}.lock` || folder.startsWith(`${path}/`);
}
