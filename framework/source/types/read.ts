import type * as TS from 'typescript';
import { cacheDir, cacheKey, cachedTable, storeTable } from './cache';
import { SchemaConverter } from './json-schema';
import { createTypeProgram, findTsconfig } from './program';
import { returnShapeOf } from './return-shape';
import { sourceOf } from './source-of';
import { statusesOf } from './statuses';
import type { MethodTypes, StatusFact, TypeTable } from './table';
import { readMethods } from './methods';
import { loadGenerator, toolVersions } from './tools';

/** What a test may set: where the cache lives, and a hook told each time a program is built (none from the cache). */
export interface ReadOptions {
  cacheDir?: string | false;
  onProgram?: (files: readonly string[]) => void;
}

/**
 * The return types and statuses of every decorated method of the classes in `files` (the routes'
 * `source.file`s), read with one TypeScript program and ts-json-schema-generator: see {@link TypeTable}.
 * A JavaScript file is read from the TypeScript source beside it, or named by its source map. Cached in this
 * process and on disk by the content of every project file of the program, so a warm start only hashes files.
 * Undefined when `typescript` or `ts-json-schema-generator` is not installed or no file has a TypeScript
 * source. Never throws: a type that cannot be converted is `{}` for its handler only.
 *
 * @example
 * ```ts
 * const table = readSourceTypes(['/home/me/demo/routers/tasks.ts']);
 * table?.files['/home/me/demo/routers/tasks.ts']['TaskRouter.one'].returns; // { kind: 'json', schema: { $ref: '#/components/schemas/Task' } }
 * ```
 */
export function readSourceTypes(files: readonly string[], options: ReadOptions = {}): TypeTable | undefined {
  try {
    const sources = new Map<string, string>();
    for (const file of new Set(files)) {
      const source = sourceOf(file);
      if (source) sources.set(file, source);
    }
    if (!sources.size) return undefined;
    // A warm start hashes files and reads one JSON file: TypeScript is loaded only to build a program.
    const versions = toolVersions();
    if (!versions) return undefined;
    const roots = [...new Set(sources.values())].sort();
    const tsconfig = findTsconfig(roots[0]);
    const key = cacheKey([...versions, tsconfig ?? '', ...[...sources].sort().map(([file, source]) => `${file}>${source}`)]);
    const dir = options.cacheDir === false ? undefined : cacheDir(roots[0], options.cacheDir);
    const cached = cachedTable(key, dir);
    if (cached) return cached;
    const generator = loadGenerator();
    if (!generator) return undefined;
    const ts = generator.ts as typeof TS;
    options.onProgram?.(roots);
    const { table, projectFiles } = readTable(ts, generator, roots, sources);
    storeTable(key, dir, [...projectFiles, ...(tsconfig ? [tsconfig] : [])], table);
    return table;
  } catch {
    return undefined;
  }
}

function readTable(
  ts: typeof TS,
  generator: NonNullable<ReturnType<typeof loadGenerator>>,
  roots: string[],
  sources: Map<string, string>,
): { table: TypeTable; projectFiles: string[] } {
  const { program } = createTypeProgram(ts, roots);
  const checker = program.getTypeChecker();
  const converter = new SchemaConverter(generator, program);
  const bySource = new Map<string, Record<string, MethodTypes>>();
  for (const root of roots) {
    const sourceFile = program.getSourceFile(root);
    if (!sourceFile) continue;
    const methods: Record<string, MethodTypes> = {};
    for (const { key, method } of readMethods(ts, sourceFile)) methods[key] = methodTypes(ts, checker, method, converter);
    bySource.set(root, methods);
  }
  const table: TypeTable = { files: {}, schemas: converter.schemas };
  for (const [file, source] of sources) {
    const methods = bySource.get(source);
    if (methods) table.files[file] = methods;
  }
  const projectFiles = program
    .getSourceFiles()
    .filter((file) => !program.isSourceFileDefaultLibrary(file) && !program.isSourceFileFromExternalLibrary(file) && !/[\\/]node_modules[\\/]/.test(file.fileName))
    .map((file) => file.fileName);
  return { table, projectFiles };
}

function methodTypes(ts: typeof TS, checker: TS.TypeChecker, method: TS.MethodDeclaration, converter: SchemaConverter): MethodTypes {
  const types: MethodTypes = {};
  let fromReturn: StatusFact[] = [];
  try {
    const read = returnShapeOf(ts, checker, method, converter);
    if (read.returns) types.returns = read.returns;
    fromReturn = read.statuses;
  } catch {
    types.returns = { kind: 'json', schema: {} };
  }
  let fromBody: { statuses: StatusFact[]; throws: string[] } = { statuses: [], throws: [] };
  try {
    fromBody = statusesOf(ts, checker, method);
  } catch {
    // the statuses the body answers stay unknown; the return type is still documented
  }
  const statuses = [...fromReturn, ...fromBody.statuses.filter((fact) => !fromReturn.some((known) => known.status === fact.status))];
  if (statuses.length) types.statuses = statuses.sort((a, b) => a.status - b.status);
  if (fromBody.throws.length) types.throws = fromBody.throws;
  return types;
}
