import { ConfigValueError } from '../framework/index';
import { CONFIG_FILE, type LoadedConfig } from './config';
import type { Problem } from './problem';

/**
 * A setting that project code found of the wrong kind (`config.string('admin.token')` on `token: true`),
 * as a problem at its line in config.yaml: the line of the key, or of the closest section that is there
 * when the key itself is missing. Undefined for any other error.
 *
 * @example
 * ```ts
 * configValueProblem(project.config, error); // { file: 'config.yaml', line: 9, message: 'admin.token must be ...' }
 * ```
 */
export function configValueProblem(config: Pick<LoadedConfig, 'lineOf'>, error: unknown): Problem | undefined {
  if (!(error instanceof ConfigValueError)) return undefined;
  const keys = error.path.split('.');
  let line: number | undefined;
  for (let depth = keys.length; line === undefined && depth > 0; depth--) line = config.lineOf(keys.slice(0, depth));
  return { file: CONFIG_FILE, line: line ?? 1, message: error.message, code: error.code };
}
