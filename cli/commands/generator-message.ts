import { GeneratorError } from '../../generators';
import { CliError } from '../cli-error';
import { messages } from '../messages';
import { isPromptExit } from '../prompts/prompts';

/** The one line a user sees for a generator's refusal. */
export function describeGeneratorError(error: GeneratorError): string {
  return messages.generator[error.reason](error.subject, error.detail);
}

/**
 * Rethrows a generator's refusal as the CLI error `main` prints, and the user leaving a prompt (Ctrl+C) as
 * "cancelled" with exit code 130; anything else unchanged.
 */
export function rethrowForCli(error: unknown): never {
  if (error instanceof GeneratorError) throw new CliError(describeGeneratorError(error));
  if (isPromptExit(error)) throw new CliError(messages.create.cancelled, 130);
  throw error;
}
