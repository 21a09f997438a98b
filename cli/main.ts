import { Command, CommanderError } from 'commander';
import { version } from './package.json';
import { CliError } from './cli-error';
import { commands } from './commands';
import { messages } from './messages';

export function buildProgram(): Command {
  const program = new Command('trellis')
    .description('Create, run and analyse trellis API projects.')
    .version(`trellis ${version}`, '-v, --version')
    .exitOverride()
    .showSuggestionAfterError(false)
    .configureOutput({ outputError: () => {} });
  for (const register of commands) register(program);
  return program;
}

/** Runs the CLI and resolves to the exit code; the caller (bin/trellis.js) sets it. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0; // --help, --version
      process.stderr.write(`trellis: ${error.message.replace(/^error: /, '')}\n`);
      return error.exitCode || 1;
    }
    const failure = error instanceof CliError ? error : await projectError(error);
    if (failure) {
      process.stderr.write(`trellis: ${failure.message}\n`);
      return failure.exitCode;
    }
    process.stderr.write(`trellis: ${messages.unexpected(error instanceof Error ? error.message : String(error))}\n`);
    return 1;
  }
}

// A ProjectError exists only once the runtime is loaded (by run, doctor or test): importing it here then costs
// nothing, and `trellis --help` or `create` never load it.
async function projectError(error: unknown): Promise<{ message: string; exitCode: number } | undefined> {
  if (!(error instanceof Error) || error.name !== 'ProjectError') return undefined;
  const { ProjectError } = await import('trellis/runtime');
  return error instanceof ProjectError ? error : undefined;
}
