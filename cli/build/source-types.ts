import { join, relative, sep } from 'node:path';
import { readSourceTypes, type TypeTable } from 'trellis/inspect';
import type { CompiledFile } from './compile';

/**
 * The return types and statuses of the handlers of every compiled file, read from the TypeScript sources (as
 * `trellis run` reads them, and from its cache when nothing changed) and keyed by the compiled file relative to
 * the build, where the built app's routes are declared. Undefined when they cannot be read
 * (`ts-json-schema-generator` not installed): the built app then documents runtime metadata only.
 */
export function buildSourceTypes(dir: string, outDir: string, files: CompiledFile[]): TypeTable | undefined {
  const prefix = `${relative(dir, outDir).split(sep).join('/')}/`;
  const table = readSourceTypes(files.map((file) => join(dir, file.source)));
  if (!table) return undefined;
  const byOutput: TypeTable['files'] = {};
  for (const { source, output } of files) {
    const methods = table.files[join(dir, source)];
    if (methods && Object.keys(methods).length) byOutput[output.slice(prefix.length)] = methods;
  }
  return { files: byOutput, schemas: table.schemas };
}
