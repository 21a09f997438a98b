import { readFileSync } from 'node:fs';

const cache = new Map<string, string[]>();

function linesOf(path: string): string[] {
  let lines = cache.get(path);
  if (!lines) {
    try {
      lines = readFileSync(path, 'utf8').split(/\r?\n/);
    } catch {
      lines = [];
    }
    cache.set(path, lines);
  }
  return lines;
}

const escape = (name: string) => name.replace(/[$]/g, '\\$');

/**
 * The 1-based line of `class Name` in a file (absolute path), or 1.
 *
 * @example
 * ```ts
 * classLine('/home/me/demo/routers/tasks.ts', 'TaskRouter'); // 8
 * ```
 */
export function classLine(file: string, className: string): number {
  const pattern = new RegExp(`\\bclass\\s+${escape(className)}\\b`);
  const index = linesOf(file).findIndex((line) => pattern.test(line));
  return index + 1 || 1;
}

/**
 * The line of method `name` of class `className`: decorators record where the class body ends, not
 * where each method is, so the method is found by name (a declaration, not a call like `this.name(`)
 * after the class line; `fallback` when it cannot be found.
 *
 * @example
 * ```ts
 * methodLine('/home/me/demo/routers/tasks.ts', 'TaskRouter', 'one'); // 21
 * ```
 */
export function methodLine(file: string, className: string, name: string, fallback = 1): number {
  const lines = linesOf(file);
  const start = classLine(file, className) - 1;
  const declaration = new RegExp(`(^|[\\s)}])(?:(?:public|protected|private|static|async|override)\\s+)*${escape(name)}\\s*[(<]`);
  for (let i = Math.max(start, 0); i < lines.length; i++) {
    const line = lines[i].replace(/\/\/.*$/, '');
    const match = declaration.exec(line);
    if (match && !/(\.|\bnew\s+|function\s+)$/.test(line.slice(0, match.index + match[1].length))) return i + 1;
  }
  return fallback;
}
