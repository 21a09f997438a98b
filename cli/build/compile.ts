import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import type * as TS from 'typescript';

/** Type errors shown before the rest are only counted. */
export const SHOWN_ERRORS = 5;

/** One compiled file: its source and what was written for it, both relative to the project, with `/`. */
export interface CompiledFile {
  source: string;
  output: string;
}

export type CompileResult = { ok: true; files: CompiledFile[] } | { ok: false; errors: string[]; count: number };

/**
 * Type-checks and compiles `roots` (the files `trellis run` would load) and what they import into `outDir`,
 * as CommonJS with decorator metadata: the options `trellis run` compiles with, over those of the
 * project's tsconfig.json (`commonJsScope`: its package.json does not say `"type": "module"`) (its strictness, lib and types are kept; paths and emit settings are not, since
 * the compiled code runs with plain Node). `beforeEmit` runs once the program type-checks (to clear the
 * output folder). Nothing is written when there is an error: the first
 * {@link SHOWN_ERRORS} come back as `file:line:col: message` lines (the file as the user reaches it from
 * `display`), with their count.
 */
export function compileProject(
  ts: typeof TS,
  dir: string,
  roots: string[],
  outDir: string,
  display: string,
  commonJsScope: boolean,
  beforeEmit: () => void = () => {},
): CompileResult {
  const read = projectOptions(ts, dir);
  if (read.errors.length) return failed(ts, read.errors, dir, display);
  const options: TS.CompilerOptions = {
    ...read.options,
    ...FORCED(ts),
    ...moduleOptions(ts, read.options, commonJsScope),
    target: Math.max(read.options.target ?? ts.ScriptTarget.ES2022, ts.ScriptTarget.ES2022),
    outDir,
    rootDir: dir,
    // Where the default type roots (node_modules/@types) are looked up from, as tsc does.
    configFilePath: join(dir, 'tsconfig.json'),
  };
  for (const key of ['paths', 'baseUrl', 'rootDirs', 'outFile', 'tsBuildInfoFile', 'declarationDir']) delete options[key];
  const program = ts.createProgram({ rootNames: roots.map((file) => join(dir, file)), options });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.some((d) => d.category === ts.DiagnosticCategory.Error)) return failed(ts, diagnostics, dir, display);
  beforeEmit();
  const files: CompiledFile[] = [];
  const emitted = program.emit(undefined, (fileName, text, _bom, _onError, sources) => {
    mkdirSync(dirname(fileName), { recursive: true });
    writeFileSync(fileName, text);
    const source = sources?.[0]?.fileName;
    if (source && fileName.endsWith('.js')) files.push({ source: inProject(dir, source), output: inProject(dir, fileName) });
  });
  if (emitted.diagnostics.some((d) => d.category === ts.DiagnosticCategory.Error)) return failed(ts, emitted.diagnostics, dir, display);
  return { ok: true, files };
}

// What the compiled code needs to run as `trellis run` runs it: CommonJS for require(), decorators with the
// design:paramtypes metadata constructor injection and class-validator read, class fields as assignments.
const FORCED = (ts: typeof TS): TS.CompilerOptions => ({
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  useDefineForClassFields: false,
  allowJs: true,
  noEmit: false,
  noEmitOnError: true,
  emitDeclarationOnly: false,
  declaration: false,
  declarationMap: false,
  composite: false,
  incremental: false,
  sourceMap: false,
  inlineSourceMap: false,
  inlineSources: false,
});

// `node16`/`nodenext` emit CommonJS in a CommonJS package (no `"type": "module"`) and resolve packages by their
// `exports`: kept. Anything else (ES modules, a bundler's resolution) becomes CommonJS with Node's classic lookup.
function moduleOptions(ts: typeof TS, options: TS.CompilerOptions, commonJsScope: boolean): TS.CompilerOptions {
  const nodeModules = options.module !== undefined && options.module >= ts.ModuleKind.Node16 && options.module <= ts.ModuleKind.NodeNext;
  if (nodeModules && commonJsScope) return { module: options.module, moduleResolution: options.moduleResolution };
  return { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 };
}

function projectOptions(ts: typeof TS, dir: string): { options: TS.CompilerOptions; errors: readonly TS.Diagnostic[] } {
  const file = join(dir, 'tsconfig.json');
  const defaults: TS.CompilerOptions = { strict: true, esModuleInterop: true, skipLibCheck: true, resolveJsonModule: true };
  if (!existsSync(file)) return { options: defaults, errors: [] };
  const { config, error } = ts.readConfigFile(file, ts.sys.readFile);
  if (error) return { options: defaults, errors: [error] };
  // Only the compiler options: which files to compile is the discovery's rule, not `include`.
  const parsed = ts.convertCompilerOptionsFromJson(config?.compilerOptions ?? {}, dir, 'tsconfig.json');
  return { options: { ...defaults, ...parsed.options }, errors: parsed.errors };
}

function failed(ts: typeof TS, diagnostics: readonly TS.Diagnostic[], dir: string, display: string): CompileResult {
  const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
  return { ok: false, errors: errors.slice(0, SHOWN_ERRORS).map((d) => describe(ts, d, dir, display)), count: errors.length };
}

function describe(ts: typeof TS, diagnostic: TS.Diagnostic, dir: string, display: string): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').split('\n').map((line) => line.trim()).join(' ');
  if (!diagnostic.file) return `${join(display, 'tsconfig.json')}: ${message}`;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
  const file = diagnostic.file.fileName;
  const shown = isAbsolute(relative(dir, file)) || relative(dir, file).startsWith('..') ? file : join(display, inProject(dir, file));
  return `${shown}:${line + 1}:${character + 1}: ${message}`;
}

function inProject(dir: string, file: string): string {
  return relative(dir, file).split(sep).join('/');
}
