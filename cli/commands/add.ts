import { join, relative } from 'node:path';
import type { Command } from 'commander';
import { addArtifact, type ArtifactKind } from '../../generators';
import { CliError } from '../cli-error';
import { messages } from '../messages';
import { askAdd, type AddChoices } from '../prompts/add-wizard';
import { isPromptExit } from '../prompts/prompts';
import { rethrowForCli } from './generator-message';
import { processTerminal, type Terminal } from './terminal';

interface AddFlags {
  dir: string;
  path?: string;
  dryRun?: boolean;
  yes?: boolean;
}

const KINDS: ArtifactKind[] = ['router', 'service', 'middleware'];

/** `trellis add router|service|middleware <name> [--dir <project>] [--path /base] [--dry-run] [--yes]` */
export function registerAdd(program: Command, terminal: Terminal = processTerminal): void {
  const add = program
    .command('add')
    .description(messages.add.description)
    .usage('router|service|middleware [name] [options]')
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
      .action((name: string | undefined, flags: AddFlags) => runAdd(kind, name, flags, terminal).catch(rethrowForCli));
  }
}

async function runAdd(kind: ArtifactKind, name: string | undefined, flags: AddFlags, terminal: Terminal): Promise<void> {
  const given: AddChoices = { name, path: flags.path };
  const interactive = !flags.yes && terminal.interactive();
  const choices = interactive && (given.name === undefined || (kind === 'router' && given.path === undefined)) ? await ask(kind, given, terminal) : given;
  if (choices.name === undefined) throw new CliError(messages.add.nameRequired(kind));
  const cwd = terminal.cwd();
  const result = await addArtifact({
    kind,
    name: choices.name,
    dir: flags.dir,
    cwd,
    path: choices.path,
    dryRun: flags.dryRun,
  });
  for (const file of result.files) {
    terminal.out(messages.add.file(relative(cwd, join(result.root, file.path)), file.bytes));
  }
  if (flags.dryRun) return terminal.out(messages.add.dryRun);
  const { className, basePath, stem } = result.names;
  terminal.out(
    kind === 'router'
      ? messages.add.hint.router(className, basePath)
      : kind === 'service'
        ? messages.add.hint.service(className)
        : messages.add.hint.middleware(className, stem),
  );
}

async function ask(kind: ArtifactKind, given: AddChoices, terminal: Terminal): Promise<AddChoices> {
  try {
    return await askAdd(kind, given, await terminal.prompts());
  } catch (error) {
    if (isPromptExit(error)) throw new CliError(messages.create.cancelled, 130);
    throw error;
  }
}
