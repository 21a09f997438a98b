import { relative } from 'node:path';
import {
  checkAuth,
  checkPort,
  checkTarget,
  createProject,
  EXAMPLES,
  initGit,
  installDependencies,
  INSTALL_COMMAND,
  projectDefaults,
  resolveExamples,
  trellisSpecs,
  type ExampleName,
  type InstallOutcome,
} from '../../generators';
import { CliError } from '../cli-error';
import { messages } from '../messages';
import { askCreate, type CreateChoices } from '../prompts/create-wizard';
import { checkoutRoot, packCheckout } from './checkout-pack';
import { rethrowForCli } from './generator-message';
import type { Terminal } from './terminal';

export interface CreateFlags {
  title?: string;
  description?: string;
  port?: string;
  minimal?: boolean;
  examples?: string;
  /** `--db` true, `--no-db` false. */
  db?: boolean;
  /** `--auth none|jwt`, checked by `checkAuth`. */
  auth?: string;
  git?: boolean;
  /** `--no-install` sets it to false. */
  install?: boolean;
  trellisSpec?: string;
  force?: boolean;
  dryRun?: boolean;
  yes?: boolean;
}

/** Installs a new project's dependencies: `installDependencies` (npm), or a stand-in in tests. */
export type Installer = (root: string) => Promise<InstallOutcome>;

/**
 * What `trellis create` does once commander has parsed the command line: collect the options (flags, then the
 * wizard), generate and write the project, `git init`, install its dependencies.
 */
export function runCreate(name: string, flags: CreateFlags, terminal: Terminal, install: Installer = installDependencies): Promise<void> {
  return create(name, flags, terminal, install).catch(rethrowForCli);
}

async function create(name: string, flags: CreateFlags, terminal: Terminal, installer: Installer): Promise<void> {
  const given = choicesFromFlags(flags);
  const cwd = terminal.cwd();
  const root = checkTarget(cwd, name, flags.force); // refuse before asking anything
  trellisSpecs(flags.trellisSpec, cwd, root);
  const asked = !flags.yes && terminal.interactive() ? await ask(name, given, terminal) : given;
  const defaults = projectDefaults(name);
  const port = asked.port ?? defaults.port;
  const chosen = asked.examples ?? defaults.examples;
  const examples = resolveExamples(chosen);
  for (const added of examples.filter((example) => example !== 'tasks' && !chosen.includes(example))) {
    const by = chosen.filter((example) => (EXAMPLES[example as ExampleName]?.needs as readonly string[]).includes(added));
    terminal.out(messages.create.addedNeed(added, by));
  }
  const trellisSpec = flags.trellisSpec ?? (flags.dryRun ? undefined : await packedCheckout(relative(cwd, root) || '.', terminal));
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
      db: asked.db ?? defaults.db,
      auth: asked.auth ?? defaults.auth,
      trellisSpec,
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
  const install = flags.install ?? defaults.install;
  if (install) await installInto(result.root, shown, terminal, installer);
  terminal.out(messages.create.next(shown, port, install));
}

// Run from a checkout without --trellis-spec: the project depends on tarballs of the checkout (the registry has
// no package of its version), copied into its vendor/ folder.
async function packedCheckout(shown: string, terminal: Terminal): Promise<string | undefined> {
  const checkout = checkoutRoot();
  if (checkout === undefined) return undefined;
  terminal.out(messages.create.fromCheckout(checkout, shown));
  const spinner = await terminal.spinner(messages.create.packing);
  try {
    return await packCheckout(checkout);
  } finally {
    spinner.stop();
  }
}

async function installInto(root: string, shown: string, terminal: Terminal, installer: Installer): Promise<void> {
  const started = Date.now();
  const spinner = await terminal.spinner(messages.create.installing(shown, INSTALL_COMMAND), { plain: true });
  let outcome;
  try {
    outcome = await installer(root);
  } finally {
    spinner.stop();
  }
  if (!outcome.ok) throw new CliError(messages.create.installFailed(shown, INSTALL_COMMAND, outcome.reason));
  terminal.out(messages.create.installed((Date.now() - started) / 1000));
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
    db: flags.db,
    auth: flags.auth === undefined ? undefined : checkAuth(flags.auth),
    git: flags.git,
  };
}

async function ask(name: string, given: CreateChoices, terminal: Terminal): Promise<CreateChoices> {
  return askCreate(name, given, await terminal.prompts());
}
