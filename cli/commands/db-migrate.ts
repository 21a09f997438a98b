import { TrellisError } from 'trellis/inspect';
import { configProblems, databaseLabel, databaseOptions, formatProblem, missingPackages, openProject, runtimeMessages } from 'trellis/internal';
import { CliError } from '../cli-error';
import { messages } from '../messages';

/**
 * `trellis db migrate [path]`: opens the project as `trellis run` does (its `.env`, then config.yaml), applies the
 * migrations of `migrations/` the database lacks, in name order, writing one line per migration applied and a
 * summary through `say`. What stops it is one line: a config.yaml problem, no `database:` section, the embedded
 * database open in another process, the server unreachable (never its password), a migration that failed.
 *
 * @example
 * ```ts
 * await migrateProject('.', console.log); // '  Applied 0001_create_tasks', '1 migration applied; ...'
 * ```
 */
export async function migrateProject(path: string, say: (line: string) => void): Promise<string[]> {
  const project = openProject(path);
  const [problem] = configProblems(project);
  if (problem) throw new CliError(formatProblem(project.display, problem));
  const options = databaseOptions(project, 'latest');
  if (!options) throw new CliError(messages.db.noSection(project.display));
  const missing = missingPackages(options.url ?? '');
  if (missing.length) throw new CliError(runtimeMessages.database.notInstalled(missing));
  say(messages.db.migrating(databaseLabel(project)!));
  const { migrateToLatest } = await import('trellis/database');
  let applied: string[];
  try {
    ({ applied } = await migrateToLatest(options));
  } catch (error) {
    // The database's coded errors are the one line to show (the lock, the server, the migration that failed).
    if (error instanceof TrellisError) throw new CliError(error.message);
    throw error;
  }
  for (const name of applied) say(messages.db.applied(name));
  say(messages.db.summary(applied.length));
  return applied;
}
