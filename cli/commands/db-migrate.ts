import { configProblems, formatProblem, migrateDatabase, openProject } from 'trellis/internal';
import { CliError } from '../cli-error';

/**
 * `trellis db migrate [path]`: opens the project as `trellis run` does (its `.env`, then config.yaml) and applies
 * the migrations of `migrations/` the database lacks (`migrateDatabase`: one line per migration applied and a
 * summary through `say`). What stops it is one line: a config.yaml problem, or what `migrateDatabase` refuses.
 *
 * @example
 * ```ts
 * await migrateProject('.', console.log); // '  Applied 0001_create_tasks', '1 migration applied: ...'
 * ```
 */
export async function migrateProject(path: string, say: (line: string) => void): Promise<string[]> {
  const project = openProject(path);
  const [problem] = configProblems(project);
  if (problem) throw new CliError(formatProblem(project.display, problem));
  return migrateDatabase(project, say);
}
