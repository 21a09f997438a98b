import { join } from 'node:path';
import { CliError } from '../cli-error';
import { messages } from '../messages';

/**
 * Throws the one-line CliError naming the fix when @swc/core, which compiles the project's TypeScript
 * (an optional peer dependency of trellis), cannot be found from trellis's folder, where cli/loader
 * resolves it (from dist/ in the installed package: the same node_modules folders up the tree).
 */
export function requireCompiler(): void {
  try {
    require.resolve('@swc/core', { paths: [join(__dirname, '..', '..')] });
  } catch {
    throw new CliError(messages.compilerMissing);
  }
}

/**
 * Throws the one-line CliError naming the fix when openapi-typescript, which `trellis client` alone uses (an
 * optional peer dependency of trellis-cli: its own peer, typescript, stays out of a production install), cannot
 * be found from the CLI's folder.
 */
export function requireClientGenerator(): void {
  try {
    require.resolve('openapi-typescript', { paths: [join(__dirname, '..', '..')] });
  } catch {
    throw new CliError(messages.client.generatorMissing);
  }
}
