import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TrellisError } from 'trellis/inspect';
import { configProblems, databaseOptions, MIGRATIONS_DIR, missingPackages, type Project } from 'trellis/internal';
import { messages } from '../../messages';
import type { Finding } from '../report';

/**
 * The migrations the project's database lacks, one warning each at its file (`npm run dev` applies them; a built
 * app refuses to start until `trellis db migrate` has): the database is opened for reading and closed. A database
 * that cannot be opened (the server unreachable, the embedded folder in use by a running app) is one warning, not a
 * failure. Nothing without a `database:` section, or while config.yaml or the packages are wrong (reported elsewhere).
 */
export async function pendingMigrations(project: Project): Promise<Finding[]> {
  const options = databaseOptions(project, 'check');
  if (!options || configProblems(project).length || missingPackages(options.url ?? '').length) return [];
  try {
    const database = await import('trellis/database');
    const pending = await database.pendingMigrations(options);
    return pending.map((name) => ({ severity: 'warning', code: 'pending-migration', message: messages.doctor.pendingMigration(name), ...fileOf(project, name) }));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return [{ severity: 'warning', code: error instanceof TrellisError ? error.code : 'database-unchecked', message: messages.doctor.databaseUnchecked(reason) }];
  }
}

// The file a migration is named after (`0002_add_done` -> migrations/0002_add_done.ts).
function fileOf(project: Project, name: string): { file: string; line: number } | object {
  const folder = join(project.dir, MIGRATIONS_DIR);
  const file = existsSync(folder) ? readdirSync(folder).find((entry) => entry.startsWith(`${name}.`) && !entry.endsWith('.d.ts')) : undefined;
  return file ? { file: `${MIGRATIONS_DIR}/${file}`, line: 1 } : {};
}
