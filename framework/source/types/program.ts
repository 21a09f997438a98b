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
  const host = ts.createCompilerHost(options, true);
  const resolve = (name: string, containing: string, mode: TS.ResolutionMode) =>
    ts.resolveModuleName(name, containing, options, host, undefined, undefined, mode);
  host.resolveModuleNameLiterals = (literals, containing, _redirect, _options, sourceFile) =>
    literals.map((literal) => {
      const found = resolve(literal.text, containing, ts.getModeForUsageLocation(sourceFile, literal, options));
      return found.resolvedModule ? found : { resolvedModule: ownEntry(ts, literal.text) };
    });
  return { program: ts.createProgram({ rootNames: files, options, host }), tsconfig };
}

// This trellis's own entry points (its sources when run from them, else its declarations).
const ENTRIES: Record<string, string> = {
  trellis: 'index',
  'trellis/param': 'param',
  'trellis/testing': 'testing',
  'trellis/inspect': 'inspect',
  'trellis/express': 'express/index',
  'trellis/security': 'security',
  'trellis/plugins': 'plugins',
  'trellis/database': 'database',
  'trellis/runtime': '../runtime/index',
};

/**
 * `trellis` for a project that cannot resolve it itself (served by a `trellis` installed elsewhere, as `trellis run`
 * does for a project without node_modules): the running trellis, so its response classes are still recognised.
 */
function ownEntry(ts: typeof TS, name: string): TS.ResolvedModuleFull | undefined {
  const entry = Object.hasOwn(ENTRIES, name) ? ENTRIES[name] : undefined;
  if (!entry) return undefined;
  const base = join(__dirname, '..', '..', entry);
  for (const [suffix, extension] of [['.ts', ts.Extension.Ts], ['.d.ts', ts.Extension.Dts]] as const) {
    if (existsSync(base + suffix)) return { resolvedFileName: base + suffix, extension, isExternalLibraryImport: suffix === '.d.ts' };
  }
  return undefined;
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
