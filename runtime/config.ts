import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FEATURE_SECTIONS, middlewareName, OPTIONAL_SECTIONS, SCHEMA, SECTIONS, type ProjectSettings } from './config-schema';
import type { Environment } from './env-lookup';
import { cachedConfigSnapshot } from './config-cache';
import { readConfigSnapshot, type ConfigSnapshot } from './config-snapshot';
import type { ParsedYaml } from './yaml-source';
import type { YamlIssue } from './yaml-issue';

/**
 * The project's settings file, at its root (and at the root of a build).
 *
 * @example
 * ```ts
 * readFileSync(join(project.dir, CONFIG_FILE), 'utf8');
 * ```
 */
export const CONFIG_FILE = 'config.yaml';
const MAX_BYTES = 1024 * 1024;

/** `config.yaml` read and checked; never throws for what the file contains. */
export interface LoadedConfig {
  /** Absolute path of the file, or undefined when the project has none (defaults apply). */
  file: string | undefined;
  /** The framework's settings, defaults applied (also when there are issues). */
  settings: ProjectSettings;
  /** Everything in the file with the framework's defaults filled in: what `Config` serves. */
  values: Record<string, unknown>;
  /** Every problem, in file order; the first one stops `trellis run`. */
  issues: YamlIssue[];
  /** The line of a key (`['middleware', '0']`) in the file, for problems found later; undefined when absent. */
  lineOf(path: readonly string[]): number | undefined;
}

/**
 * Reads `<dir>/config.yaml`; a missing file means defaults. `${NAME}` references in it are read from `env`.
 * A build passes its `snapshot` of the file: while the file still reads the same, no YAML parser is loaded.
 * Without one, the snapshot kept in the project's cache for this text is used (made on the first read).
 */
export function readConfig(dir: string, env: Environment = process.env, built?: ConfigSnapshot): LoadedConfig {
  const file = join(dir, CONFIG_FILE);
  if (!existsSync(file)) return checkConfig(undefined, {});
  if (statSync(file).size > MAX_BYTES) return withIssue(file, 1, 'the file is larger than 1 MiB');
  const source = readFileSync(file, 'utf8');
  const snapshot = built === undefined ? cachedConfigSnapshot(dir, source) : built.source === source ? built : undefined;
  const parsed = snapshot ? readConfigSnapshot(snapshot, env) : parseYaml(source, env);
  if (parsed.issues.length) return { ...checkConfig(file, {}, parsed), issues: parsed.issues };
  return checkConfig(file, parsed.value, parsed);
}

/** Validates parsed data against the schema; `parsed` gives line numbers. */
export function checkConfig(file: string | undefined, data: unknown, parsed?: ParsedYaml): LoadedConfig {
  const issues: YamlIssue[] = [];
  const report = (path: string[], message: string) => issues.push({ line: parsed?.lineOf(path) ?? 1, message });
  const lineOf = (path: readonly string[]) => parsed?.lineOf(path);
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    report([], `must be a mapping of sections (app, server, ...), got ${Array.isArray(data) ? 'a list' : 'a single value'}`);
    data = {};
  }
  const raw = data as Record<string, unknown>;
  const values: Record<string, unknown> = { ...raw };
  const settings = {} as Record<string, unknown>;

  for (const [section, fields] of Object.entries(SCHEMA)) {
    if (OPTIONAL_SECTIONS.has(section) && !Object.hasOwn(raw, section)) continue;
    let given = raw[section] ?? {};
    if (typeof given !== 'object' || Array.isArray(given)) {
      report([section], `${section} must be a mapping (${Object.keys(fields).join(', ')}), got ${Array.isArray(given) ? 'a list' : JSON.stringify(given)}`);
      given = {};
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(given as Record<string, unknown>)) {
      if (!Object.hasOwn(fields, key)) report([section, key], unknownKey(`${section}.${key}`, key, Object.keys(fields)));
    }
    for (const [key, field] of Object.entries(fields)) {
      const value = (given as Record<string, unknown>)[key];
      const problem = value === undefined ? undefined : field.check(value);
      if (problem) report([section, key], `${section}.${key} ${problem}`);
      out[key] = value === undefined || value === null || problem ? field.default : value;
    }
    settings[section] = out;
    values[section] = out;
  }

  settings.middleware = checkMiddleware(raw.middleware, report);
  values.middleware = settings.middleware;

  for (const key of Object.keys(raw)) {
    // A feature's section (runtime/features.ts) is checked by its plug-in: `compression:` alone turns it on with its
    // defaults, and `etag: true | false` is a value, not a mapping.
    if (FEATURE_SECTIONS.has(key)) {
      if (raw[key] === null) values[key] = {};
      continue;
    }
    if (SECTIONS.includes(key)) continue;
    const near = SECTIONS.find((known) => isNear(key, known));
    if (near) report([key], `unknown key ${key} (did you mean ${near}?)`);
    else if (raw[key] === null || typeof raw[key] !== 'object' || Array.isArray(raw[key])) {
      report([key], `unknown key ${key} (the framework's sections are ${SECTIONS.join(', ')}; a project's own settings go in a mapping, e.g. admin: { token: ... })`);
    }
  }
  issues.sort((a, b) => a.line - b.line);
  return { file, settings: settings as unknown as ProjectSettings, values, issues, lineOf };
}

function checkMiddleware(value: unknown, report: (path: string[], message: string) => void): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    report(['middleware'], `middleware must be a list of file names in middleware/ (like [timing]), got ${JSON.stringify(value)}`);
    return [];
  }
  const names: string[] = [];
  value.forEach((item, index) => {
    const problem = middlewareName(item);
    if (problem) report(['middleware', String(index)], `middleware[${index}] ${problem}`);
    else if (names.includes(item)) report(['middleware', String(index)], `middleware lists ${item} twice`);
    else names.push(item);
  });
  return names;
}

function unknownKey(full: string, key: string, known: string[]): string {
  const near = known.find((name) => isNear(key, name));
  return near ? `unknown key ${full} (did you mean ${near}?)` : `unknown key ${full} (expected ${known.join(', ')})`;
}

function withIssue(file: string, line: number, message: string): LoadedConfig {
  return { ...checkConfig(file, {}), issues: [{ line, message }] };
}

// A likely misspelling: same letters in another case, or one or two edits (a swap of neighbours counts
// as one) from a known name of 4+ letters.
function isNear(a: string, b: string): boolean {
  if (a.toLowerCase() === b.toLowerCase()) return true;
  return b.length >= 4 && editDistance(a.toLowerCase(), b) <= (b.length >= 6 ? 2 : 1);
}

function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

// Loaded on first use: a build whose snapshot still holds never loads the YAML parser.
function parseYaml(source: string, env: Environment): ParsedYaml {
  return (require('./yaml-source') as typeof import('./yaml-source')).parseYaml(source, env);
}
