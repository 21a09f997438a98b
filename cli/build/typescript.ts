import type * as TS from 'typescript';
import { CliError } from '../cli-error';
import { messages } from '../messages';

/**
 * The TypeScript compiler the project installed (its `typescript` devDependency: the version its editor and
 * `npx tsc` use), else the one next to trellis; neither is a `CliError` saying how to install it.
 */
export function loadTypeScript(projectDir: string): typeof TS {
  for (const options of [{ paths: [projectDir] }, undefined]) {
    let file: string;
    try {
      file = require.resolve('typescript', options);
    } catch {
      continue;
    }
    return require(file) as typeof TS;
  }
  throw new CliError(messages.build.noTypeScript);
}
