import type { Command } from 'commander';
import { CliError } from '../cli-error';
import { messages } from '../messages';
import { requireCompiler } from './compiler';

/** `trellis test [path]`: the project's tests with the CLI's loader; exits with the runner's code. */
export function registerTest(program: Command): void {
  program
    .command('test')
    .description(messages.test.description)
    .argument('[path]', 'the project folder', '.')
    .action(async (path: string) => {
      requireCompiler();
      const code = await (await import('../project/test-runner')).runProjectTests(path);
      if (code !== 0) throw new CliError(messages.test.failed, code);
    });
}
