import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const TYPESCRIPT = /\.[cm]?tsx?$/;
const JAVASCRIPT = /\.[cm]?jsx?$/;

/**
 * The TypeScript file whose types a route's `source.file` has: the file itself when it is TypeScript; for a
 * JavaScript file (an app compiled by its own `tsc`), the `.ts` beside it (same folder and base name), else
 * the TypeScript source its `.js.map` names. Undefined when there is none (runtime metadata only then).
 *
 * @example
 * ```ts
 * sourceOf('/srv/app/dist/routers/tasks.js'); // '/srv/app/src/routers/tasks.ts' (from tasks.js.map)
 * ```
 */
export function sourceOf(file: string): string | undefined {
  if (file.endsWith('.d.ts')) return undefined;
  if (TYPESCRIPT.test(file)) return existsSync(file) ? file : undefined;
  if (!JAVASCRIPT.test(file)) return undefined;
  const base = file.replace(JAVASCRIPT, '');
  for (const ext of ['.ts', '.tsx', '.mts', '.cts']) if (existsSync(base + ext)) return base + ext;
  return fromSourceMap(file);
}

function fromSourceMap(file: string): string | undefined {
  let map: { sources?: unknown; sourceRoot?: unknown };
  try {
    map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as typeof map;
  } catch {
    return undefined;
  }
  const root = typeof map.sourceRoot === 'string' ? map.sourceRoot : '';
  const sources = Array.isArray(map.sources) ? map.sources.filter((s): s is string => typeof s === 'string') : [];
  for (const source of sources) {
    if (!TYPESCRIPT.test(source) || source.endsWith('.d.ts') || /^[a-z][\w+.-]*:/i.test(root + source)) continue;
    const candidate = resolve(dirname(file), root, source);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}
