import { readFileSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { Problem } from './problem';

/**
 * Finds where a load error happened: a syntax error reported by the TypeScript hook carries its file
 * and line; otherwise the first stack frame inside the project (source-mapped, so TypeScript lines).
 * Falls back to the file being loaded, line 1.
 */
export function describeLoadError(error: unknown, loading: string, projectDir: string): Problem {
  const located = error as { file?: unknown; line?: unknown };
  const message = firstLine(error);
  if (typeof located?.file === 'string' && typeof located.line === 'number') {
    const file = inside(projectDir, located.file);
    if (file) return { file, line: located.line, message };
  }
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  for (const [, path, line] of stack.matchAll(/\(?((?:file:\/\/)?\/[^():\s]+):(\d+):\d+\)?$/gm)) {
    const file = inside(projectDir, path.replace(/^file:\/\//, ''));
    if (file) return { file, line: importLine(projectDir, file, error) ?? Number(line), message };
  }
  return { file: loading, line: 1, message };
}

// A missing module is reported where it is imported (compiled code requires it where it is first used).
function importLine(projectDir: string, file: string, error: unknown): number | undefined {
  if ((error as { code?: unknown })?.code !== 'MODULE_NOT_FOUND') return undefined;
  const name = /Cannot find module '([^']+)'/.exec(error instanceof Error ? error.message : '')?.[1];
  if (!name) return undefined;
  let lines: string[];
  try {
    lines = readFileSync(join(projectDir, file), 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const index = lines.findIndex((text) => text.includes(`'${name}'`) || text.includes(`"${name}"`));
  return index < 0 ? undefined : index + 1;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split('\n').find((part) => part.trim() !== '') ?? 'failed to load';
  return error instanceof Error && error.name !== 'Error' ? `${error.name}: ${line.trim()}` : line.trim();
}

function inside(projectDir: string, path: string): string | undefined {
  if (!isAbsolute(path)) return undefined;
  const rel = relative(projectDir, path);
  if (rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('node_modules')) return undefined;
  return rel.split(sep).join('/');
}
