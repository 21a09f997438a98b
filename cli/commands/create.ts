import type { Command } from 'commander';
import { messages } from '../messages';
import type { CreateFlags } from './create-action';
import { processTerminal, type Terminal } from './terminal';

/**
 * `trellis create <name> [--title] [--description] [--port] [--minimal | --examples a,b] [--[no-]db] [--auth none|jwt] [--[no-]git]
 * [--no-install] [--trellis-spec <spec>] [--force] [--dry-run] [--yes]`
 */
export function registerCreate(program: Command, terminal: Terminal = processTerminal): void {
  program
    .command('create')
    .description(messages.create.description)
    .argument('<name>', 'folder and npm package name of the project')
    .option('--title <title>', 'title of the API (default: from the name, "Demo API" for demo)')
    .option('--description <text>', 'description of the API')
    .option('--port <port>', 'port the app listens on (default: 8000)')
    .option('--minimal', 'only the tasks router, no other examples')
    .option('--examples <names>', 'comma-separated examples besides tasks: products,users,upload,pages,admin')
    .option('--db', 'keep the data in a database: Kysely, migrations, the embedded PGlite in development, PostgreSQL (DATABASE_URL) in production')
    .option('--no-db', 'keep the data in memory (default)')
    .option('--auth <kind>', 'none (default), or jwt: task writes need a bearer token with the scope tasks:write, signed with JWT_SECRET (.env)')
    .option('--git', 'run git init (default)')
    .option('--no-git', 'do not run git init')
    .option('--no-install', 'do not run npm install in the new project')
    .option(
      '--trellis-spec <spec>',
      'what package.json depends on for trellis and trellis-cli: a tarball (copied into vendor/ with trellis-cli\'s beside it), a folder, a version, a tag (default: ^<this version>; from a checkout, tarballs packed from it)',
    )
    .option('--force', 'write into an existing non-empty folder, replacing files the project has')
    .option('--dry-run', 'list the files, write nothing')
    .option('-y, --yes', 'ask nothing: defaults for what flags do not give')
    .action(async (name: string, flags: CreateFlags) => (await import('./create-action')).runCreate(name, flags, terminal));
}

