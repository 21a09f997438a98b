import { isDeepStrictEqual } from 'node:util';
import { resolveValue, type Environment } from './env-lookup';
import type { ParsedYaml, YamlSnapshot } from './yaml-source';
import type { YamlIssue } from './yaml-issue';

/**
 * config.yaml as `trellis build` parsed it, kept in the build's manifest: a built app resolves its `${NAME}`
 * references from the environment at start without loading a YAML parser (a fifth of a cold start). It holds
 * the file's text: once the file reads otherwise (edited after the build), it is parsed again.
 */
export interface ConfigSnapshot extends YamlSnapshot {
  source: string;
}

/**
 * The snapshot of a config.yaml text, or undefined when the text has an issue (it is then parsed, and the issue
 * reported, at start). Loads the YAML parser: for `trellis build`, not for a built app.
 *
 * @example
 * ```ts
 * const snapshot = createConfigSnapshot(readFileSync('config.yaml', 'utf8'));
 * ```
 */
export function createConfigSnapshot(source: string): ConfigSnapshot | undefined {
  const { snapshotYaml } = require('./yaml-source') as typeof import('./yaml-source');
  const snapshot = snapshotYaml(source);
  // The manifest is JSON: a value JSON cannot hold (.nan, .inf, -0) leaves the file to the parser.
  if (!snapshot || !isDeepStrictEqual(snapshot.value, JSON.parse(JSON.stringify(snapshot.value)))) return undefined;
  return { source, ...snapshot };
}

/**
 * What `parseYaml(snapshot.source, env)` gives, read from the snapshot: every reference resolved from `env`
 * (typed when it is a plain value of its own), an unset one without a default an issue at its line.
 *
 * @example
 * ```ts
 * const parsed = readConfigSnapshot(manifest.configSnapshot, process.env);
 * parsed.lineOf(['server', 'port']); // 3
 * ```
 */
export function readConfigSnapshot(snapshot: ConfigSnapshot, env: Environment): ParsedYaml {
  const issues: YamlIssue[] = [];
  // In document order, as the parser resolves them: their issues come in the same order.
  const values = snapshot.references.map(({ parts, plain, line }) => resolveValue(parts, plain, env, line, issues));
  const lines = new Map(snapshot.lines.map(([path, line]) => [JSON.stringify(path), line]));
  const lineOf = (path: readonly string[]) => (path.length === 0 ? 1 : lines.get(JSON.stringify(path)));
  issues.sort((a, b) => a.line - b.line);
  if (issues.length) return { value: undefined, issues, lineOf };
  const resolve = (value: unknown): unknown => {
    if (typeof value === 'string') {
      if (!value.startsWith(snapshot.marker)) return value;
      const index = Number(value.slice(snapshot.marker.length));
      return Number.isInteger(index) && index < values.length ? values[index] : value;
    }
    if (Array.isArray(value)) return value.map(resolve);
    if (value !== null && typeof value === 'object') {
      // Keys as data (a `__proto__` key stays a key), as the parser's own plain objects hold them.
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) Object.defineProperty(out, key, { value: resolve(item), enumerable: true, writable: true, configurable: true });
      return out;
    }
    return value;
  };
  return { value: resolve(snapshot.value), issues, lineOf };
}
