import { checkPort, EXAMPLES, GeneratorError, OPTIONAL_EXAMPLES, projectDefaults, type AuthKind } from '../../generators';
import { messages } from '../messages';
import type { Prompts } from './prompts';

/** What `create` needs beyond the name; `undefined` = not given yet. */
export interface CreateChoices {
  title?: string;
  description?: string;
  port?: number;
  /** Optional examples (tasks is always in). */
  examples?: string[];
  /** Keep the data in a database (`--db`). */
  db?: boolean;
  /** Protect the task writes with JWT bearer tokens (`--auth jwt`) or not (`--auth none`). */
  auth?: AuthKind;
  git?: boolean;
}

/**
 * The create wizard: asks, in order, for each value `given` (from flags) lacks: title, description, port,
 * example routers, a database, JWT bearer tokens on task writes, git init. Returns `given` completed.
 *
 * @example
 * ```ts
 * const choices = await askCreate('demo', { port: 3000 }, await terminalPrompts());
 * ```
 */
export async function askCreate(name: string, given: CreateChoices, prompts: Prompts): Promise<Required<CreateChoices>> {
  const defaults = projectDefaults(name);
  const title =
    given.title ??
    (await prompts.input({
      message: messages.create.ask.title,
      default: defaults.title,
      validate: (value) => value.trim() !== '' || messages.create.titleRequired,
    }));
  const description =
    given.description ?? (await prompts.input({ message: messages.create.ask.description, default: defaults.description }));
  const port =
    given.port ??
    checkPort(
      await prompts.input({ message: messages.create.ask.port, default: String(defaults.port), validate: portProblem }),
    );
  const examples =
    given.examples ??
    (await prompts.checkbox({
      message: messages.create.ask.examples,
      choices: OPTIONAL_EXAMPLES.map((example) => ({ name: EXAMPLES[example].summary, value: example, checked: true })),
    }));
  const db = given.db ?? (await prompts.confirm({ message: messages.create.ask.db, default: defaults.db }));
  const auth =
    given.auth ??
    ((await prompts.confirm({ message: messages.create.ask.auth, default: defaults.auth === 'jwt' })) ? 'jwt' : 'none');
  const git = given.git ?? (await prompts.confirm({ message: messages.create.ask.git, default: defaults.git }));
  return { title: title.trim(), description: description.trim(), port, examples, db, auth, git };
}

function portProblem(value: string): true | string {
  try {
    checkPort(value);
    return true;
  } catch (error) {
    return messages.generator['invalid-port']((error as GeneratorError).subject);
  }
}
