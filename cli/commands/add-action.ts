import { join, relative } from 'node:path';
import { addArtifact, addResource, type ArtifactKind } from '../../generators';
import { CliError } from '../cli-error';
import { messages } from '../messages';
import { askAdd, askResourceName, type AddChoices } from '../prompts/add-wizard';
import { rethrowForCli } from './generator-message';
import type { Terminal } from './terminal';

export interface AddFlags {
  dir: string;
  path?: string;
  dryRun?: boolean;
  yes?: boolean;
}

/** What `trellis add <kind>` does once commander has parsed the command line. */
export function runAdd(kind: ArtifactKind, name: string | undefined, flags: AddFlags, terminal: Terminal): Promise<void> {
  return add(kind, name, flags, terminal).catch(rethrowForCli);
}

async function add(kind: ArtifactKind, name: string | undefined, flags: AddFlags, terminal: Terminal): Promise<void> {
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
  return askAdd(kind, given, await terminal.prompts());
}

/** What `trellis add resource` does once commander has parsed the command line. */
export function runAddResource(name: string | undefined, flags: AddFlags, terminal: Terminal): Promise<void> {
  return addResourceFiles(name, flags, terminal).catch(rethrowForCli);
}

async function addResourceFiles(given: string | undefined, flags: AddFlags, terminal: Terminal): Promise<void> {
  const name = given ?? (!flags.yes && terminal.interactive() ? await askResourceName(await terminal.prompts()) : undefined);
  if (name === undefined) throw new CliError(messages.add.nameRequired('resource'));
  const cwd = terminal.cwd();
  const result = await addResource({ name, dir: flags.dir, cwd, dryRun: flags.dryRun });
  const shown = (path: string) => relative(cwd, join(result.root, path));
  for (const file of result.files) terminal.out(messages.add.file(shown(file.path), file.bytes));
  for (const file of result.updated) terminal.out(messages.add.updated(shown(file.path), file.bytes));
  if (flags.dryRun) return terminal.out(messages.add.dryRun);
  terminal.out(messages.add.hint.resource(result.names.routerClass, result.names.basePath, result.names.itemPath, result.db));
}
