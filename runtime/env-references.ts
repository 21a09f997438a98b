import { randomBytes } from 'node:crypto';
import { Scalar, visit, type Document } from 'yaml';
import { parseReference, resolveValue, type Environment, type Reference } from './env-lookup';
import type { YamlIssue } from './yaml-issue';

export type { Environment } from './env-lookup';

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
          node.value = this.keyText(node.value);
          return;
        }
        const line = lineAt(node.range?.[0] ?? 0);
        node.value = resolveValue(this.parts(node.value), node.type === Scalar.PLAIN, env, line, this.issues);
      },
    });
  }

  /**
   * A masked value's text as what `resolve` reads in it: literal text (escaped `$${...}` included, as the
   * `${...}` it stands for) and the references, in order. A build keeps these to resolve config.yaml at start
   * without parsing YAML.
   */
  parts(value: string): Array<string | Reference> {
    const parts: Array<string | Reference> = [];
    let last = 0;
    for (const match of value.matchAll(this.#pattern)) {
      const entry = this.#tokens.get(match[0]);
      if (entry === undefined) continue;
      if (match.index > last) parts.push(value.slice(last, match.index));
      parts.push(entry);
      last = match.index + match[0].length;
    }
    if (last < value.length) parts.push(value.slice(last));
    return parts;
  }

  /** Whether a value holds a reference (or an escaped `$${...}`) at all. */
  has(value: string): boolean {
    return value.includes(this.#prefix);
  }

  /** A key's text as written (keys are never resolved). */
  keyText(value: string): string {
    return value.replace(this.#pattern, (token) => this.#source(token));
  }

  #source(token: string): string {
    const entry = this.#tokens.get(token)!;
    if (typeof entry === 'string') return `$${entry}`;
    const tail = entry.fallback === undefined ? '' : `${entry.emptyUsesFallback ? ':-' : '-'}${entry.fallback}`;
    return `\${${entry.name}${tail}}`;
  }
}
