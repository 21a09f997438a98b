import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node } from 'yaml';
import { EnvReferences, type Environment } from './env-references';

/** A problem in a YAML file, at a 1-based line. */
export interface YamlIssue {
  line: number;
  message: string;
}

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
  const lines = new LineCounter();
  const references = new EnvReferences();
  const masked = references.mask(source);
  const doc = parseDocument(masked, { lineCounter: lines, schema: 'core', customTags: [], merge: false, prettyErrors: true });
  const lineAt = (offset: number) => lines.linePos(offset).line;
  const issues: YamlIssue[] = [...doc.errors, ...doc.warnings].map((problem) => ({
    line: problem.linePos?.[0].line ?? lineAt(problem.pos[0]),
    message: tidy(problem.message),
  }));
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
