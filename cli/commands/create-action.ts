import { relative } from 'node:path';
import {
  checkPort,
  checkTarget,
  createProject,
  EXAMPLES,
  initGit,
  projectDefaults,
  resolveExamples,
  type ExampleName,
} from '../../generators';
import { CliError } from '../cli-error';
import { messages } from '../messages';
import { askCreate, type CreateChoices } from '../prompts/create-wizard';
import { rethrowForCli } from './generator-message';
import type { Terminal } from './terminal';

export interface CreateFlags {
  title?: string;
  description?: string;
  port?: string;
  minimal?: boolean;
  examples?: string;
  git?: boolean;
  force?: boolean;
  dryRun?: boolean;
  yes?: boolean;
}

/** What `trellis create` does once commander has parsed the command line. */
export function runCreate(name: string, flags: CreateFlags, terminal: Terminal): Promise<void> {
  return create(name, flags, terminal).catch(rethrowForCli);
}

async function create(name: string, flags: CreateFlags, terminal: Terminal): Promise<void> {
  const given = choicesFromFlags(flags);
  const cwd = terminal.cwd();
  checkTarget(cwd, name, flags.force); // refuse before asking anything
  const asked = !flags.yes && terminal.interactive() ? await ask(name, given, terminal) : given;
  const defaults = projectDefaults(name);
  const port = asked.port ?? defaults.port;
  const chosen = asked.examples ?? defaults.examples;
  const examples = resolveExamples(chosen);
  for (const added of examples.filter((example) => example !== 'tasks' && !chosen.includes(example))) {
    const by = chosen.filter((example) => (EXAMPLES[example as ExampleName]?.needs as readonly string[]).includes(added));
    terminal.out(messages.create.addedNeed(added, by));
  }
  const spinner = await terminal.spinner(messages.create.rendering(name));
  let result;
  try {
    result = await createProject({
      cwd,
      name,
      title: asked.title ?? defaults.title,
      description: asked.description ?? defaults.description,
      port,
      examples,
      force: flags.force,
      dryRun: flags.dryRun,
    });
  } finally {
    spinner.stop();
  }
  const shown = relative(cwd, result.root) || '.';
  for (const file of result.files) terminal.out(messages.create.file(`${shown}/${file.path}`, file.bytes));
  if (flags.dryRun) return terminal.out(messages.create.dryRun(shown, result.files.length));
  terminal.out(messages.create.created(shown, result.files.length));
  if (asked.git ?? defaults.git) {
    const outcome = initGit(result.root);
    const line = messages.create.git[outcome](shown);
    if (outcome === 'git-missing' || outcome === 'failed') terminal.warn(`trellis: ${line}`);
    else terminal.out(line);
  }
  terminal.out(messages.create.next(shown, port));
}

function choicesFromFlags(flags: CreateFlags): CreateChoices {
  if (flags.minimal && flags.examples !== undefined) throw new CliError(messages.create.minimalWithExamples);
  if (flags.title !== undefined && flags.title.trim() === '') throw new CliError(messages.create.titleRequired);
  const examples = flags.minimal ? [] : flags.examples?.split(',').map((s) => s.trim()).filter(Boolean);
  if (examples) resolveExamples(examples); // an unknown name fails now, not after the wizard
  return {
    title: flags.title?.trim(),
    description: flags.description?.trim(),
    port: flags.port === undefined ? undefined : checkPort(flags.port),
    examples,
    git: flags.git,
  };
}

async function ask(name: string, given: CreateChoices, terminal: Terminal): Promise<CreateChoices> {
  return askCreate(name, given, await terminal.prompts());
}
