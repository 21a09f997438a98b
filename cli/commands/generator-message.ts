import { GeneratorError } from '../../generators';
import { CliError } from '../cli-error';
import { messages } from '../messages';

/** The one line a user sees for a generator's refusal. */
export function describeGeneratorError(error: GeneratorError): string {
  return messages.generator[error.reason](error.subject, error.detail);
}

/** Rethrows a generator's refusal as the CLI error `main` prints; anything else unchanged. */
export function rethrowForCli(error: unknown): never {
  if (error instanceof GeneratorError) throw new CliError(describeGeneratorError(error));
  throw error;
}
