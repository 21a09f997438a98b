import type { Command } from 'commander';
import type { ArtifactKind } from '../../generators';
import { CliError } from '../cli-error';
import { messages } from '../messages';
import type { AddFlags } from './add-action';
import { processTerminal, type Terminal } from './terminal';

const KINDS: ArtifactKind[] = ['router', 'service', 'middleware'];

/**
 * `trellis add router|service|middleware <name> [--dir <project>] [--path /base] [--dry-run] [--yes]`, and
 * `trellis add resource <name> [--dir <project>] [--dry-run] [--yes]`.
 */
export function registerAdd(program: Command, terminal: Terminal = processTerminal): void {
  const add = program
    .command('add')
    .description(messages.add.description)
    .usage('router|service|middleware|resource [name] [options]')
    .allowExcessArguments()
    // Reached only when no subcommand matched: `trellis add` or `trellis add <unknown kind>`.
    .action((_flags: object, command: Command) => {
      const [kind] = command.args;
      throw new CliError(kind === undefined ? messages.add.kindRequired : messages.add.unknownKind(kind));
    });
  for (const kind of KINDS) {
    const command = add
      .command(kind)
      .description(messages.add[kind])
      .argument('[name]', `name of the ${kind} (asked for on a terminal when left out)`)
      .option('--dir <project>', 'the project folder', '.');
    if (kind === 'router') command.option('--path <base>', 'base path of the router (default: /<name>)');
    command
      .option('--dry-run', 'show the file, write nothing')
      .option('-y, --yes', 'ask nothing')
      .action(async (name: string | undefined, flags: AddFlags) => (await import('./add-action')).runAdd(kind, name, flags, terminal));
  }
  add
    .command('resource')
    .description(messages.add.resource)
    .argument('[name]', 'name of the resource, as its path and table: notes, order-items (asked for on a terminal when left out)')
    .option('--dir <project>', 'the project folder', '.')
    .option('--dry-run', 'show the files, write nothing')
    .option('-y, --yes', 'ask nothing')
    .action(async (name: string | undefined, flags: AddFlags) => (await import('./add-action')).runAddResource(name, flags, terminal));
}
