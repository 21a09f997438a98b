// How a `${...}` reference of config.yaml reads the environment, apart from YAML: used when config.yaml is parsed
// (env-references.ts) and when a build's snapshot of it is read (config-snapshot.ts), which loads no YAML parser.
import { coreScalar } from './yaml-scalar';

/** Where `${NAME}` references in config.yaml find their values: `process.env` by default. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** One `${NAME}`, `${NAME:-default}` or `${NAME-default}`. */
export interface Reference {
  name: string;
  /** What stands after `:-` (used when NAME is unset or empty) or `-` (unset only). */
  fallback?: string;
  emptyUsesFallback: boolean;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The reference written between `${` and `}`, or undefined when it is not one (`${1X}`, `${}`). */
export function parseReference(body: string): Reference | undefined {
  const cut = body.search(/:?-/);
  const name = cut === -1 ? body : body.slice(0, cut);
  if (!NAME.test(name)) return undefined;
  if (cut === -1) return { name, emptyUsesFallback: false };
  const emptyUsesFallback = body[cut] === ':';
  return { name, fallback: body.slice(cut + (emptyUsesFallback ? 2 : 1)), emptyUsesFallback };
}

/** The value of a reference in `env` (its fallback when unset, or empty with `:-`); undefined when unset without one. */
export function lookupReference(reference: Reference, env: Environment): string | undefined {
  const value = env[reference.name];
  if (value === undefined || (value === '' && reference.emptyUsesFallback)) return reference.fallback ?? value;
  return value;
}

/**
 * A config.yaml value made of literal text and references, resolved from `env`: typed as YAML's core schema types
 * it when the value is one plain reference (`port: ${PORT}` is a number), else text. An unset reference without
 * a default is an issue at `line` (and reads as empty).
 */
export function resolveValue(
  parts: ReadonlyArray<string | Reference>,
  plain: boolean,
  env: Environment,
  line: number,
  issues: Array<{ line: number; message: string; unset?: string }>,
): unknown {
  let text = '';
  for (const part of parts) {
    if (typeof part === 'string') text += part;
    else {
      const value = lookupReference(part, env);
      if (value === undefined) issues.push({ line, message: `${part.name} is not set`, unset: part.name });
      text += value ?? '';
    }
  }
  return plain && parts.length === 1 && typeof parts[0] === 'object' ? coreScalar(text) : text;
}
