import { join, resolve } from 'node:path';
import type { BaseRouter } from '../framework/index';
import { TrellisError } from '../framework/inspect';
import type { DatabaseOptions } from '../framework/database';
import { CONFIG_FILE } from './config';
import { messages } from './messages';
import type { Problem } from './problem';
import { ProjectError } from './project-error';
import { projectPath, shownPath, type Project } from './project';

/** The folder of a project's migrations (and of a build's, compiled by `trellis build`). */
export const MIGRATIONS_DIR = 'migrations';

type DatabaseEntry = typeof import('../framework/database');

/**
 * The database options of a project whose config.yaml has a `database:` section (undefined without one): its
 * url and pool, the embedded folder (relative to the project; a build's relative to the folder it is started
 * from, since `trellis build` clears dist/), the project's (or build's) `migrations/`, and `migrate` as given.
 *
 * @example
 * ```ts
 * databaseOptions(openProject('.'), 'latest');
 * // { url: '', pool: 10, dataDir: '/home/me/demo/data/db', migrations: '/home/me/demo/migrations', migrate: 'latest' }
 * ```
 */
export function databaseOptions(project: Pick<Project, 'dir' | 'config' | 'built'>, migrate: DatabaseOptions['migrate']): DatabaseOptions | undefined {
  const settings = project.config.settings.database;
  if (!settings) return undefined;
  return {
    url: settings.url,
    pool: settings.pool,
    dataDir: project.built ? resolve(settings.data_dir) : projectPath(project, settings.data_dir),
    migrations: join(project.dir, MIGRATIONS_DIR),
    migrate,
  };
}

/**
 * Registers `database()` (trellis/database) on a project's app when config.yaml has a `database:` section: under
 * `trellis run` pending migrations are applied at startup ('latest'), a build refuses to start while one is
 * pending ('check'). trellis/database, and with it kysely, pg and PGlite, is loaded only then: a project without
 * the section needs none of them. Their absence is a problem at the section's line.
 *
 * @example
 * ```ts
 * const app = createApp(project, discovery, middleware);
 * stopAt(project, registerDatabase(app, project));
 * ```
 */
export function registerDatabase(app: BaseRouter, project: Pick<Project, 'dir' | 'config' | 'built'>): Problem[] {
  const options = databaseOptions(project, project.built ? 'check' : 'latest');
  if (!options) return [];
  const line = project.config.lineOf(['database']) ?? 1;
  const missing = missingPackages(options.url ?? '');
  if (missing.length) return [{ file: CONFIG_FILE, line, message: messages.database.notInstalled(missing) }];
  try {
    app.register(databaseEntry().database(options));
  } catch (error) {
    // What config.yaml's checks let through and the plug-in refuses (or a package that fails to load): at the section.
    return [{ file: CONFIG_FILE, line, message: error instanceof Error ? error.message : String(error), ...(error instanceof TrellisError && { code: error.code }) }];
  }
  return [];
}

// trellis/database, loaded on first use: it loads kysely.
function databaseEntry(): DatabaseEntry {
  return require('../framework/database') as DatabaseEntry;
}

/**
 * What trellis/database needs (optional peers of trellis) and trellis cannot find from its own folder, where it
 * requires them: kysely, and pg for a server (`url`) or PGlite for the embedded database.
 */
export function missingPackages(url: string): string[] {
  return ['kysely', url === '' ? '@electric-sql/pglite' : 'pg'].filter((name) => {
    try {
      require.resolve(name, { paths: [__dirname] });
      return false;
    } catch {
      return true;
    }
  });
}

/**
 * How the banner and `trellis db migrate` name a project's database (undefined without a `database:` section): the
 * server's `host:port/name` and pool (never the user or the password), or the embedded folder as the user reaches it
 * (a build's relative to where it is started, see {@link databaseOptions}).
 *
 * @example
 * ```ts
 * databaseLabel(project); // 'PostgreSQL at db.internal:5432/tasks, 10 connections per process'
 * ```
 */
export function databaseLabel(project: Pick<Project, 'display' | 'config' | 'built'>): string | undefined {
  const settings = project.config.settings.database;
  if (!settings) return undefined;
  if (settings.url === '') return messages.database.embedded(project.built ? settings.data_dir : shownPath(project, settings.data_dir));
  const url = new URL(settings.url);
  const address = `${url.hostname || 'localhost'}:${url.port || '5432'}${url.pathname.length > 1 ? url.pathname : ''}`;
  return messages.database.pool(messages.database.server(address), settings.pool);
}

/**
 * Applies the migrations the project's (or build's) database lacks, in name order, writing one line per migration
 * applied and a summary through `say`: `trellis db migrate`, and `node dist/main.js --migrate` where the CLI is not
 * installed. What stops it is one line (a `ProjectError`): no `database:` section, a package missing, the embedded
 * database open in another process, the server unreachable (never its password), a migration that failed.
 *
 * @example
 * ```ts
 * await migrateDatabase(openProject('.'), console.log); // 'Migrating the database: ...', '  Applied 0001_create_tasks', ...
 * ```
 */
export async function migrateDatabase(project: Pick<Project, 'dir' | 'display' | 'config' | 'built'>, say: (line: string) => void): Promise<string[]> {
  const options = databaseOptions(project, 'latest');
  if (!options) throw new ProjectError(messages.database.noSection(project.display));
  const missing = missingPackages(options.url ?? '');
  if (missing.length) throw new ProjectError(messages.database.notInstalled(missing));
  say(messages.database.migrating(databaseLabel(project)!));
  let applied: string[];
  try {
    ({ applied } = await databaseEntry().migrateToLatest(options));
  } catch (error) {
    // The database's coded errors are the one line to show (the lock, the server, the migration that failed).
    if (error instanceof TrellisError) throw new ProjectError(error.message);
    throw error;
  }
  for (const name of applied) say(messages.database.applied(name));
  say(messages.database.summary(applied.length));
  return applied;
}
