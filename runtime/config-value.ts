import { Config } from '../framework/index';
import { ConfigSectionError, ConfigValueError } from '../framework/internal';
import { TrellisError, type Class } from '../framework/inspect';
import { settingsSectionOf } from '../framework/inspect';
import { CONFIG_FILE, type LoadedConfig } from './config';
import type { Problem } from './problem';

type Lines = Pick<LoadedConfig, 'lineOf'>;

/**
 * Each setting that project code found wrong, as a problem at its line in config.yaml (the line of the key, or
 * of the closest enclosing key that is there when it is missing): one for `config.string('admin.token')` on
 * `token: true`, one per failing setting of a `config.section(...)` or `@Settings` class. Empty for any other
 * error. What `doctor` lists.
 *
 * @example
 * ```ts
 * configValueProblems(project.config, error);
 * // [{ file: 'config.yaml', line: 9, message: 'admin.token must be a string', code: 'TRELLIS_ERR_CONFIG_SECTION' },
 * //  { file: 'config.yaml', line: 9, message: 'admin.url must be a URL address', code: 'TRELLIS_ERR_CONFIG_SECTION' }]
 * ```
 */
export function configValueProblems(config: Lines, error: unknown): Problem[] {
  if (error instanceof ConfigValueError) return [at(config, error.path.split('.'), error.message, error.code)];
  if (error instanceof ConfigSectionError) return error.problems.map((problem) => at(config, problem.keys, problem.message, error.code));
  return [];
}

/**
 * The first of {@link configValueProblems}: the one line `trellis run` stops with
 * (`config.yaml:9: admin.token must be a string`). Undefined for any other error.
 *
 * @example
 * ```ts
 * configValueProblem(project.config, error); // { file: 'config.yaml', line: 9, message: 'admin.token must be ...' }
 * ```
 */
export function configValueProblem(config: Lines, error: unknown): Problem | undefined {
  return configValueProblems(config, error)[0];
}

/**
 * Checks the config sections of the `@Settings` classes among `classes` and their constructor parameters'
 * types (what the container would inject), without building anything: one problem per failing setting, in
 * the order the classes come (a settings class without rules: one at its section).
 *
 * @example
 * ```ts
 * settingsProblems(project.config, [...discovery.routers, ...discovery.services].map((found) => found.cls));
 * // [{ file: 'config.yaml', line: 9, message: 'admin.token must be a string', code: 'TRELLIS_ERR_CONFIG_SECTION' }]
 * ```
 */
export function settingsProblems(config: Pick<LoadedConfig, 'lineOf' | 'values'>, classes: readonly Class[]): Problem[] {
  const values = new Config(config.values);
  const problems: Problem[] = [];
  for (const cls of settingsClasses(classes)) {
    const section = settingsSectionOf(cls)!;
    try {
      values.section(section, cls);
    } catch (error) {
      const found = configValueProblems(config, error);
      // A class that cannot check its section (no rules) is reported at the section it is for.
      if (!found.length && error instanceof TrellisError) found.push(at(config, section.split('.'), error.message, error.code));
      if (!found.length) throw error;
      problems.push(...found);
    }
  }
  return problems;
}

function settingsClasses(classes: readonly Class[]): Class[] {
  const parameterTypes = (cls: Class): unknown[] => Reflect.getMetadata('design:paramtypes', cls) ?? [];
  const candidates = classes.flatMap((cls) => [cls, ...parameterTypes(cls)]);
  return [...new Set(candidates.filter((cls): cls is Class => settingsSectionOf(cls) !== undefined))];
}

function at(config: Lines, keys: readonly string[], message: string, code: string): Problem {
  let line: number | undefined;
  for (let depth = keys.length; line === undefined && depth > 0; depth--) line = config.lineOf(keys.slice(0, depth));
  return { file: CONFIG_FILE, line: line ?? 1, message, code };
}
