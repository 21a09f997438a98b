import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type * as TS from 'typescript';

/** The TypeScript program the reader walks, and the tsconfig.json its options came from (if any). */
export interface TypeProgram {
  program: TS.Program;
  tsconfig: string | undefined;
}

/**
 * One program over `files` with the options of the project's tsconfig.json (the nearest one upward from the
 * first file; `extends` followed), made for reading types only: nothing emitted, library files not checked.
 * Without a tsconfig.json, the options a trellis project has (strict, ES2022, decorators).
 */
export function createTypeProgram(ts: typeof TS, files: string[]): TypeProgram {
  const tsconfig = findTsconfig(files[0]);
  const options: TS.CompilerOptions = { ...(tsconfig ? optionsOf(ts, tsconfig) : DEFAULTS(ts)), ...READ_ONLY };
  if (tsconfig) options.configFilePath = tsconfig;
  return { program: ts.createProgram({ rootNames: files, options }), tsconfig };
}

/** The tsconfig.json a program over `files` is made with: the nearest one upward from the first file. */
export function findTsconfig(file: string | undefined): string | undefined {
  if (!file) return undefined;
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const candidate = join(dir, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

const DEFAULTS = (ts: typeof TS): TS.CompilerOptions => ({
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  lib: ['lib.es2022.d.ts'],
  strict: true,
  esModuleInterop: true,
  resolveJsonModule: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
});

const READ_ONLY: TS.CompilerOptions = {
  noEmit: true,
  skipLibCheck: true,
  allowJs: false,
  declaration: false,
  composite: false,
  incremental: false,
  experimentalDecorators: true,
};

function optionsOf(ts: typeof TS, tsconfig: string): TS.CompilerOptions {
  const { config, error } = ts.readConfigFile(tsconfig, (name) => readFileSync(name, 'utf8'));
  if (error || !config) return DEFAULTS(ts);
  // The files come from the routes, not from `include`: only the options are taken.
  const parsed = ts.parseJsonConfigFileContent({ ...config, include: [], files: [] }, ts.sys, dirname(tsconfig), undefined, tsconfig);
  return { ...DEFAULTS(ts), ...parsed.options };
}
