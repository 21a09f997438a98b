import { randomBytes } from 'node:crypto';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, Scalar, visit, type Document, type Node } from 'yaml';
import type { Environment, Reference } from './env-lookup';
import { EnvReferences } from './env-references';
import type { YamlIssue } from './yaml-issue';

export interface ParsedYaml {
  /** The document as plain data (`{}` when empty); undefined when it could not be read. */
  value: unknown;
  issues: YamlIssue[];
  /** The line of the key (or list item) at `path`; undefined when the file does not have it. */
  lineOf(path: readonly string[]): number | undefined;
}

// Enough for any hand-written config; an "alias bomb" (aliases of aliases) is stopped long before it grows.
const MAX_ALIASES = 50;

/**
 * Parses YAML as plain data: the core schema only (strings, numbers, booleans, null, lists, mappings),
 * so no tag can build objects or run code; unknown tags (`!!js/function`) and every warning are errors.
 * `${NAME}`, `${NAME:-default}` and `${NAME-default}` in values are read from `env` (see EnvReferences);
 * a reference to an unset variable without a default is an issue: `NAME is not set`.
 */
export function parseYaml(source: string, env: Environment = {}): ParsedYaml {
  const { doc, references, issues, lineAt } = readDocument(source);
  const lineOf = (path: readonly string[]) => lineOfPath(doc, path, lineAt);
  if (!issues.length) references.resolve(doc, env, lineAt);
  issues.push(...references.issues);
  issues.sort((a, b) => a.line - b.line);
  if (issues.length) return { value: undefined, issues, lineOf };
  try {
    return { value: doc.toJS({ maxAliasCount: MAX_ALIASES }) ?? {}, issues, lineOf };
  } catch (error) {
    return { value: undefined, issues: [{ line: firstAliasLine(doc, lineAt), message: aliasMessage(error) }], lineOf };
  }
}

/** A value of config.yaml that holds references: what it is made of, whether it was written plain, its line. */
export interface SnapshotReference {
  parts: Array<string | Reference>;
  plain: boolean;
  line: number;
}

/** config.yaml parsed once, references left unresolved: see `ConfigSnapshot`. */
export interface YamlSnapshot {
  /** Stands, followed by an index into `references`, for each value that holds references. */
  marker: string;
  value: unknown;
  references: SnapshotReference[];
  /** The line of every key and list item, by path. */
  lines: Array<[string[], number]>;
}

/**
 * The document as `parseYaml` reads it, with each value that holds references replaced by a marker and kept
 * apart, so it can be resolved in another process without a YAML parser; undefined when the file has an
 * issue before references are read (that file is parsed again at start, which reports it).
 */
export function snapshotYaml(source: string): YamlSnapshot | undefined {
  const { doc, references, issues, lineAt } = readDocument(source);
  if (issues.length || references.issues.length) return undefined;
  const marker = `trellis-value-${randomBytes(6).toString('hex')}-`;
  const kept: SnapshotReference[] = [];
  visit(doc, {
    Scalar: (key, node) => {
      if (typeof node.value !== 'string' || !references.has(node.value)) return;
      if (key === 'key') {
        node.value = references.keyText(node.value);
        return;
      }
      kept.push({ parts: references.parts(node.value), plain: node.type === Scalar.PLAIN, line: lineAt(node.range?.[0] ?? 0) });
      node.value = `${marker}${kept.length - 1}`;
    },
  });
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIASES }) ?? {};
  } catch {
    return undefined;
  }
  return { marker, value, references: kept, lines: everyLine(doc, lineAt) };
}

function readDocument(source: string): { doc: Document; references: EnvReferences; issues: YamlIssue[]; lineAt: (offset: number) => number } {
  const lines = new LineCounter();
  const references = new EnvReferences();
  const masked = references.mask(source);
  const doc = parseDocument(masked, { lineCounter: lines, schema: 'core', customTags: [], merge: false, prettyErrors: true });
  const lineAt = (offset: number) => lines.linePos(offset).line;
  const issues: YamlIssue[] = [...doc.errors, ...doc.warnings].map((problem) => ({
    line: problem.linePos?.[0].line ?? lineAt(problem.pos[0]),
    message: tidy(problem.message),
  }));
  return { doc, references, issues, lineAt };
}

// What `lineOfPath` answers for each path it can reach (the first of duplicate keys, no path through an alias).
function everyLine(doc: Document, lineAt: (offset: number) => number): Array<[string[], number]> {
  const found: Array<[string[], number]> = [];
  const walk = (node: unknown, path: string[], line: number) => {
    if (isSeq(node)) {
      node.items.forEach((item, index) => {
        const at = (item as Node).range ? lineAt((item as Node).range![0]) : line;
        found.push([[...path, String(index)], at]);
        walk(item, [...path, String(index)], at);
      });
    } else if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        if (!isPair(pair) || !isScalar(pair.key)) continue;
        const key = String(pair.key.value);
        if (seen.has(key)) continue;
        seen.add(key);
        const at = pair.key.range ? lineAt(pair.key.range[0]) : line;
        found.push([[...path, key], at]);
        walk(pair.value, [...path, key], at);
      }
    }
  };
  walk(doc.contents, [], 1);
  return found;
}

// "Unresolved tag: tag:yaml.org,2002:js/function at line 2, column 10:\n<excerpt>" -> the first clause.
function tidy(message: string): string {
  const first = message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  const tag = /^Unresolved tag: (?:tag:yaml\.org,2002:)?(.+)$/.exec(first);
  if (tag) return `unsupported tag ${tag[1].startsWith('!') ? tag[1] : `!!${tag[1]}`} (config.yaml holds plain data only)`;
  return first.charAt(0).toLowerCase() + first.slice(1);
}

function aliasMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return /alias/i.test(text) ? `too many aliases (more than ${MAX_ALIASES} expansions)` : text;
}

function firstAliasLine(doc: Document, lineAt: (offset: number) => number): number {
  let line = 1;
  visit(doc, {
    Alias(_key, node) {
      line = lineAt(node.range?.[0] ?? 0);
      return visit.BREAK;
    },
  });
  return line;
}

function lineOfPath(doc: Document, path: readonly string[], lineAt: (offset: number) => number): number | undefined {
  let node: unknown = doc.contents;
  let line: number | undefined = 1;
  for (const key of path) {
    let found: Node | undefined;
    if (isSeq(node)) found = node.items[Number(key)] as Node | undefined;
    else if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === key);
      if (pair) {
        line = (pair.key as Node).range ? lineAt((pair.key as Node).range![0]) : line;
        node = pair.value;
        continue;
      }
    }
    if (!found) return undefined;
    line = found.range ? lineAt(found.range[0]) : line;
    node = found;
  }
  return line;
}
