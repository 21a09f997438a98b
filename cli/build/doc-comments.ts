import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parseDocComments, type ClassDocs } from 'trellis/inspect';
import type { CompiledFile } from './compile';

/**
 * The doc comments of every compiled file that declares classes, by its path relative to the build: read from
 * the source (the JSDoc, and `@Header` names, that compiled code no longer holds) with each class's lines
 * taken from the compiled file, where the built app's routes are declared (the docs tell same-named classes
 * of one file apart by line).
 */
export function buildDocComments(dir: string, outDir: string, files: CompiledFile[]): Record<string, ClassDocs[]> {
  const table: Record<string, ClassDocs[]> = {};
  const prefix = `${relative(dir, outDir).split(sep).join('/')}/`;
  for (const { source, output } of files) {
    const classes = parseDocComments(source, readFileSync(join(dir, source), 'utf8'));
    if (!classes.length) continue;
    const compiled = parseDocComments(output, readFileSync(join(dir, output), 'utf8'));
    const seen = new Map<string, number>();
    table[output.slice(prefix.length)] = classes.map((docs) => {
      const nth = seen.get(docs.name) ?? 0;
      seen.set(docs.name, nth + 1);
      const lines = compiled.filter((c) => c.name === docs.name)[nth];
      return lines ? { ...docs, start: lines.start, end: lines.end } : docs;
    });
  }
  return table;
}
