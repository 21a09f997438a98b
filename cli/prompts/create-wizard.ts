import { checkPort, EXAMPLES, GeneratorError, OPTIONAL_EXAMPLES, projectDefaults } from '../../generators';
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
  git?: boolean;
}

/**
 * The create wizard: asks, in order, for each value `given` (from flags) lacks: title, description, port,
 * example routers, a database, git init. Returns `given` completed.
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
  const git = given.git ?? (await prompts.confirm({ message: messages.create.ask.git, default: defaults.git }));
  return { title: title.trim(), description: description.trim(), port, examples, db, git };
}

function portProblem(value: string): true | string {
  try {
    checkPort(value);
    return true;
  } catch (error) {
    return messages.generator['invalid-port']((error as GeneratorError).subject);
  }
}
