import 'reflect-metadata';
import { injectedTokens } from './inject';
import type { Token } from './token';

/** One constructor parameter as the container sees it. */
export interface ConstructorParameter {
  /** 1-based, as errors count. */
  position: number;
  /** The name in the class's source (`tasks`), or `#2` when it cannot be read. */
  name: string;
  /** The `@Inject` token, or else the type TypeScript recorded (`Object` for an interface, `undefined` if none). */
  token: Token | undefined;
  /** Whether `token` came from `@Inject`. */
  explicit: boolean;
}

/**
 * The constructor parameters of `cls` with what each asks for; undefined when TypeScript recorded no types
 * (the class has no decorator) although the constructor takes parameters.
 */
export function constructorParameters(cls: Function): ConstructorParameter[] | undefined {
  const recorded: unknown[] | undefined = Reflect.getMetadata('design:paramtypes', cls);
  const tokens = injectedOf(cls);
  const count = Math.max(recorded?.length ?? 0, cls.length, ...(tokens ? [...tokens.keys()].map((i) => i + 1) : []));
  if (count === 0) return [];
  if (!recorded && !(tokens && tokens.size === count)) return undefined;
  const names = parameterNames(cls);
  return Array.from({ length: count }, (_, index) => {
    const token = tokens?.get(index);
    return {
      position: index + 1,
      name: names[index] ?? `#${index + 1}`,
      token: token ?? (recorded?.[index] as Token | undefined),
      explicit: token !== undefined,
    };
  });
}

// `@Inject` on a base class's constructor applies to a subclass that declares no constructor of its own.
function injectedOf(cls: Function): ReadonlyMap<number, Token> | undefined {
  for (let current: Function | null = cls; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    const tokens = injectedTokens(current);
    if (tokens) return tokens;
    if (Reflect.hasOwnMetadata('design:paramtypes', current)) return undefined;
  }
  return undefined;
}

/** The parameter names of the nearest constructor in `cls`'s source (compiled JavaScript keeps them). */
export function parameterNames(cls: Function): string[] {
  for (let current: Function | null = cls; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    const text = source(current);
    const start = text.search(/\bconstructor\s*\(/);
    if (start < 0) continue;
    const open = text.indexOf('(', start);
    return splitTopLevel(text.slice(open + 1, closing(text, open))).map((param) => /^[\s.]*([A-Za-z_$][\w$]*)/.exec(param)?.[1] ?? '');
  }
  return [];
}

/** The parameter names of a method (a handler), read from its source as {@link parameterNames} reads a constructor's. */
export function methodParameterNames(method: Function | undefined): string[] {
  const text = method ? source(method) : '';
  const open = text.indexOf('(');
  if (open < 0) return [];
  return splitTopLevel(text.slice(open + 1, closing(text, open))).map((param) => /^[\s.]*([A-Za-z_$][\w$]*)/.exec(param)?.[1] ?? '');
}

function source(cls: Function): string {
  try {
    return Function.prototype.toString.call(cls);
  } catch {
    return '';
  }
}

function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if ('([{'.includes(text[i])) depth++;
    else if (')]}'.includes(text[i]) && --depth === 0) return i;
  }
  return text.length;
}

function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < list.length; i++) {
    if ('([{'.includes(list[i])) depth++;
    else if (')]}'.includes(list[i])) depth--;
    else if (list[i] === ',' && depth === 0) {
      parts.push(list.slice(from, i));
      from = i + 1;
    }
  }
  if (list.slice(from).trim()) parts.push(list.slice(from));
  return parts;
}
