import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** ts-json-schema-generator (with the TypeScript it uses), or undefined when it or `typescript` is not installed. */
export type Generator = typeof import('ts-json-schema-generator');

let generator: Generator | null | undefined;

/** ts-json-schema-generator, loaded on first use; undefined when it (or `typescript`, its peer) is missing. */
export function loadGenerator(): Generator | undefined {
  if (generator === undefined) {
    try {
      generator = require('ts-json-schema-generator') as Generator;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
      generator = null;
    }
  }
  return generator ?? undefined;
}

/**
 * The versions a table depends on besides the files: trellis's, TypeScript's and ts-json-schema-generator's
 * (the TypeScript next to it), read from their package.json files without loading them. Undefined when either
 * tool is not installed.
 */
export function toolVersions(): string[] | undefined {
  const generator = packageOf('ts-json-schema-generator', [__dirname]);
  const typescript = generator && packageOf('typescript', [generator.dir]);
  if (!generator || !typescript) return undefined;
  return [`trellis ${trellisVersion()}`, `typescript ${typescript.version}`, `ts-json-schema-generator ${generator.version}`];
}

function packageOf(name: string, paths: string[]): { dir: string; version: string } | undefined {
  try {
    const file = require.resolve(`${name}/package.json`, { paths });
    return { dir: dirname(file), version: (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version };
  } catch {
    return undefined;
  }
}

let trellis: string | undefined;

function trellisVersion(): string {
  if (trellis !== undefined) return trellis;
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
        if (pkg.name === 'trellis') return (trellis = pkg.version ?? '');
      } catch {
        // not this one
      }
    }
    if (dirname(dir) === dir) return (trellis = '');
  }
}
