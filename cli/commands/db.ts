import type { Command } from 'commander';
import { CliError } from '../cli-error';
import { messages } from '../messages';
import { requireCompiler } from './compiler';

/** `trellis db migrate [path]`: applies the project's pending migrations to the database config.yaml names. */
export function registerDb(program: Command): void {
  const db = program
    .command('db')
    .description(messages.db.description)
    .usage('migrate [path]')
    .allowExcessArguments()
    // Reached only when no subcommand matched: `trellis db` or `trellis db <unknown>`.
    .action((_flags: object, command: Command) => {
      const [name] = command.args;
      throw new CliError(name === undefined ? messages.db.subcommandRequired : messages.db.unknownSubcommand(name));
    });
  db.command('migrate')
    .description(messages.db.migrate)
    .argument('[path]', 'the project folder', '.')
    .action(async (path: string) => {
      requireCompiler(); // the migrations are TypeScript
      await (await import('./db-migrate')).migrateProject(path, (line) => void process.stdout.write(`${line}\n`));
    });
}
