import { createRequire } from 'node:module';
import { isAbsolute, join, relative, sep } from 'node:path';
import { TrellisError } from '../framework/inspect';
import { declarationOf, importsOf, stackLocations } from '../framework/inspect';
import type { Problem } from './problem';

/**
 * Finds where a load error happened: a syntax error reported by the TypeScript hook carries its file
 * and line; otherwise the first stack frame inside the project (source-mapped, so TypeScript lines), or, for
 * what a decorator refused as the class was defined (`TRELLIS_ERR_PARAM_CONSTRAINT`), the handler its
 * details name in that file. Falls back to the file being loaded, line 1.
 */
export function describeLoadError(error: unknown, loading: string, projectDir: string): Problem {
  const located = error as { file?: unknown; line?: unknown };
  const message = firstLine(error);
  if (typeof located?.file === 'string' && typeof located.line === 'number') {
    const file = inside(projectDir, located.file);
    if (file) return { file, line: located.line, message };
  }
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  for (const frame of stackLocations(stack)) {
    const file = inside(projectDir, frame.file);
    if (file && error instanceof TrellisError) return { file, line: handlerLine(join(projectDir, file), error) ?? frame.line, message, code: error.code };
    if (file) return { file, line: missingImportLine(join(projectDir, file), error) ?? frame.line, message };
  }
  return { file: loading, line: 1, message };
}

// A missing module is reported where it is imported (compiled code requires it where it is first used): the
// first import of the file that does not resolve from it.
function missingImportLine(file: string, error: unknown): number | undefined {
  if ((error as { code?: unknown })?.code !== 'MODULE_NOT_FOUND') return undefined;
  const resolve = createRequire(file).resolve;
  return importsOf(file).find(({ specifier }) => {
    try {
      resolve(specifier);
      return false;
    } catch {
      return true;
    }
  })?.line;
}

// The decorators of a handler run before its class is finished, so the handler is found by name: `Class.method`.
function handlerLine(file: string, error: TrellisError): number | undefined {
  const label = error.details.handler;
  const dot = typeof label === 'string' ? label.indexOf('.') : -1;
  if (dot <= 0) return undefined;
  return declarationOf(file, (label as string).slice(0, dot), (label as string).slice(dot + 1))?.line;
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
