import { randomBytes } from 'node:crypto';
import { parse, Scalar, visit, type Document } from 'yaml';
import type { YamlIssue } from './yaml-source';

/** Where `${NAME}` references in config.yaml find their values: `process.env` by default. */
export type Environment = Readonly<Record<string, string | undefined>>;

interface Reference {
  name: string;
  /** What stands after `:-` (used when NAME is unset or empty) or `-` (unset only). */
  fallback?: string;
  emptyUsesFallback: boolean;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * config.yaml with each `${...}` swapped for a token that is a plain scalar anywhere (also inside `{ }` and
 * `[ ]`, where `${X}` would be YAML syntax), so references are resolved in the parsed document: a value from
 * the environment is data, never YAML, and the document's lines stay where they are.
 */
export class EnvReferences {
  readonly #tokens = new Map<string, Reference | string>();
  readonly #prefix = `trellis-env-${randomBytes(6).toString('hex')}-`;
  readonly #pattern = new RegExp(`${this.#prefix}\\d+`, 'g');
  readonly issues: YamlIssue[] = [];

  /**
   * The source with its references masked (`$${...}` stands for a literal `${...}`); a reference it cannot read,
   * or a `${` without its `}` on the same line outside a comment, is an issue at its line. One pass, so the
   * work stays linear in the file's size whatever it holds.
   */
  mask(source: string): string {
    let out = '';
    let copied = 0;
    let line = 1;
    let lineStart = 0;
    let lineEnd = source.indexOf('\n');
    let hash = source.indexOf('#');
    let close = -1;
    let reportedLine = 0;
    for (let at = source.indexOf('${'); at !== -1; ) {
      while (lineEnd !== -1 && lineEnd < at) {
        line++;
        lineStart = lineEnd + 1;
        lineEnd = source.indexOf('\n', lineStart);
      }
      if (hash !== -1 && hash < lineStart) hash = source.indexOf('#', lineStart);
      if (close < at) close = source.indexOf('}', at) >>> 0; // none left: past any line's end
      if (close >= source.length || (lineEnd !== -1 && close > lineEnd)) {
        const inComment = hash !== -1 && hash < at;
        if (!inComment && reportedLine !== line) this.issues.push({ line, message: '${ without its closing }' });
        reportedLine = line;
        at = source.indexOf('${', at + 2);
        continue;
      }
      const escaped = at > copied && source[at - 1] === '$';
      const whole = source.slice(at, close + 1);
      const token = `${this.#prefix}${this.#tokens.size}`;
      const reference = escaped ? undefined : parseReference(source.slice(at + 2, close));
      if (escaped) this.#tokens.set(token, whole);
      else if (reference) this.#tokens.set(token, reference);
      else {
        this.issues.push({ line, message: `${whole} is not a reference: write \${NAME} or \${NAME:-default}` });
      }
      if (escaped || reference) {
        out += source.slice(copied, escaped ? at - 1 : at) + token;
        copied = close + 1;
      }
      at = source.indexOf('${', close + 1);
    }
    return out + source.slice(copied);
  }

  /**
   * Replaces the tokens in the document's values (keys keep their text): a plain value that is one reference
   * takes the type its value reads as (`port: ${PORT}` is a number), anything else is a string.
   */
  resolve(doc: Document, env: Environment, lineAt: (offset: number) => number): void {
    if (this.#tokens.size === 0) return;
    visit(doc, {
      Scalar: (key, node) => {
        if (typeof node.value !== 'string' || !node.value.includes(this.#prefix)) return;
        if (key === 'key') {
          node.value = node.value.replace(this.#pattern, (token) => this.#source(token));
          return;
        }
        const text = node.value.replace(this.#pattern, (token) => {
          const value = this.#lookup(token, env);
          if (value === undefined) {
            const { name } = this.#tokens.get(token) as Reference;
            this.issues.push({ line: lineAt(node.range?.[0] ?? 0), message: `${name} is not set` });
            return '';
          }
          return value;
        });
        node.value = node.type === Scalar.PLAIN && this.#isOneReference(node.value) ? typedScalar(text) : text;
      },
    });
  }

  #isOneReference(value: string): boolean {
    return value.startsWith(this.#prefix) && typeof this.#tokens.get(value) === 'object';
  }

  #lookup(token: string, env: Environment): string | undefined {
    const entry = this.#tokens.get(token)!;
    if (typeof entry === 'string') return entry;
    const value = env[entry.name];
    if (value === undefined || (value === '' && entry.emptyUsesFallback)) return entry.fallback ?? value;
    return value;
  }

  #source(token: string): string {
    const entry = this.#tokens.get(token)!;
    if (typeof entry === 'string') return `$${entry}`;
    const tail = entry.fallback === undefined ? '' : `${entry.emptyUsesFallback ? ':-' : '-'}${entry.fallback}`;
    return `\${${entry.name}${tail}}`;
  }
}

function parseReference(body: string): Reference | undefined {
  const cut = body.search(/:?-/);
  const name = cut === -1 ? body : body.slice(0, cut);
  if (!NAME.test(name)) return undefined;
  if (cut === -1) return { name, emptyUsesFallback: false };
  const emptyUsesFallback = body[cut] === ':';
  return { name, fallback: body.slice(cut + (emptyUsesFallback ? 2 : 1)), emptyUsesFallback };
}

// What YAML's core schema makes of the text as a plain scalar (`''` is null, as an empty value is): a number,
// boolean or null; else the text itself.
function typedScalar(text: string): unknown {
  if (text === '') return null;
  if (/[\s:#,[\]{}&*!|>'"%@`]/.test(text)) return text;
  try {
    const value: unknown = parse(text, { schema: 'core' });
    return value === null || typeof value === 'number' || typeof value === 'boolean' ? value : text;
  } catch {
    return text;
  }
}


