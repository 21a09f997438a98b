import { artifactNames, checkBasePath, GeneratorError, resourceNames, type ArtifactKind } from '../../generators';
import { describeGeneratorError } from '../commands/generator-message';
import { messages } from '../messages';
import type { Prompts } from './prompts';

export interface AddChoices {
  name?: string;
  /** Routers only. */
  path?: string;
}

/**
 * The add wizard: asks for the name if it is missing and, for a router, the base path (default `/<name>`).
 *
 * @example
 * ```ts
 * const { name, path } = await askAdd('router', {}, await terminalPrompts());
 * ```
 */
export async function askAdd(kind: ArtifactKind, given: AddChoices, prompts: Prompts): Promise<AddChoices> {
  const name =
    given.name ??
    (await prompts.input({ message: messages.add.ask.name(kind), validate: (value) => problem(() => artifactNames(kind, value)) }));
  if (kind !== 'router' || given.path !== undefined) return { name, path: given.path };
  const path = await prompts.input({
    message: messages.add.ask.path,
    default: artifactNames(kind, name).basePath,
    validate: (value) => problem(() => checkBasePath(value)),
  });
  return { name, path };
}

/**
 * `trellis add resource` on a terminal without a name: asks for it, checked as the generator checks it.
 *
 * @example
 * ```ts
 * const name = await askResourceName(await terminalPrompts()); // 'notes'
 * ```
 */
export async function askResourceName(prompts: Prompts): Promise<string> {
  return prompts.input({ message: messages.add.ask.name('resource'), validate: (value) => problem(() => resourceNames(value)) });
}

function problem(check: () => unknown): true | string {
  try {
    check();
    return true;
  } catch (error) {
    if (error instanceof GeneratorError) return describeGeneratorError(error);
    throw error;
  }
}
