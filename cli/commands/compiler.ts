import { packageRoot } from '../../generators/paths';
import { CliError } from '../cli-error';
import { messages } from '../messages';

/**
 * Throws the one-line CliError naming the fix when @swc/core, which compiles the project's TypeScript
 * (an optional peer dependency of trellis), cannot be found from trellis's folder, as cli/loader resolves it.
 */
export function requireCompiler(): void {
  try {
    require.resolve('@swc/core', { paths: [packageRoot] });
  } catch {
    throw new CliError(messages.compilerMissing);
  }
}
