import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './paths';

interface Manifest {
  version: string;
  engines?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/**
 * The package.json of the running CLI (trellis-cli's; the repository's in a checkout), read at run time: the
 * source of every version a generated project lists. trellis and trellis-cli have one version.
 */
export const trellisManifest: Manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));

/**
 * Libraries a generated project depends on besides trellis: what its code imports (class-validator) and what
 * trellis's decorators need to be one instance with the project's (class-transformer, reflect-metadata). Their
 * ranges are trellis's own, so npm installs one copy of each.
 */
export const SHARED_LIBRARIES = ['class-validator', 'class-transformer', 'reflect-metadata'] as const;

/**
 * What a `--db` project adds to its dependencies: the SQL library (its class is what services inject), the
 * PostgreSQL client and the embedded PostgreSQL. `trellis/database` imports them; they are trellis's optional
 * peers, so their ranges are trellis's peer ranges.
 */
export const DATABASE_LIBRARIES = ['kysely', 'pg', '@electric-sql/pglite'] as const;

/** The range of `trellis` (and of `trellis-cli`) a project gets without `--trellis-spec`: `^0.1.0-pre.1` for 0.1.0-pre.1. */
export const defaultTrellisRange = `^${trellisManifest.version}`;

/**
 * A generated project's `dependencies`: trellis as `trellis` (a range or an npm spec) and the shared libraries
 * at trellis's ranges, sorted by name as npm writes them.
 *
 * @example
 * ```ts
 * projectDependencies('^0.1.0-pre.1');
 * // { 'class-transformer': '0.5.1', 'class-validator': '0.14.4', 'reflect-metadata': '0.2.2', trellis: '^0.1.0-pre.1' }
 * ```
 */
export function projectDependencies(trellis: string, { db = false } = {}): Record<string, string> {
  const entries = SHARED_LIBRARIES.map((name) => [name, trellisRange(name)] as const);
  const database = db ? DATABASE_LIBRARIES.map((name) => [name, peerRange(name)] as const) : [];
  return sorted([...entries, ...database, ['trellis', trellis]]);
}

/**
 * A generated project's `devDependencies`: the command-line tool as `trellis-cli` (`cli`: a range or an npm
 * spec, as `trellis` is given), and tools matched to what trellis is built and tested with: `typescript`
 * (`~`, for `npm run typecheck`), `@swc/core` (exact: `trellis run` and `trellis test` compile with it, and
 * it is the version whose binaries exist for every platform), `@types/node` (`^` of the major),
 * `ts-json-schema-generator` (trellis's range: with typescript, it reads handlers' return types into the docs in
 * development and in `trellis build`; a production install needs neither), `esbuild` (exact: `trellis build`
 * bundles trellis with it for a faster start); with `db`, `@types/pg` (trellis's version) for the `pg` types
 * Kysely's PostgreSQL dialect names.
 */
export function projectDevDependencies(cli: string, { db = false } = {}): Record<string, string> {
  return sorted([
    ...(db ? [['@types/pg', trellisRange('@types/pg')] as const] : []),
    ['trellis-cli', cli],
    ['@swc/core', trellisRange('@swc/core')],
    ['@types/node', `^${trellisRange('@types/node').replace(/^[^\d]*/, '').split('.')[0]}`],
    ['esbuild', trellisRange('esbuild')],
    ['ts-json-schema-generator', trellisRange('ts-json-schema-generator')],
    ['typescript', withPrefix('~', trellisRange('typescript'))],
  ]);
}

/** The version trellis itself installs `name` at: from its dependencies, devDependencies or peerDependencies. */
function trellisRange(name: string): string {
  const { dependencies, devDependencies, peerDependencies } = trellisManifest;
  const range = dependencies?.[name] ?? devDependencies?.[name] ?? peerDependencies?.[name];
  if (!range) throw new Error(`trellis's package.json lists no ${name}, which generated projects need`);
  return range;
}

/** The range trellis accepts `name` at as a peer: what a project that installs it beside trellis lists. */
function peerRange(name: string): string {
  const range = trellisManifest.peerDependencies?.[name];
  if (!range) throw new Error(`trellis's package.json lists no peer ${name}, which --db projects need`);
  return range;
}

const withPrefix = (prefix: string, range: string) => (/^\d/.test(range) ? `${prefix}${range}` : range);

function sorted(entries: ReadonlyArray<readonly [string, string]>): Record<string, string> {
  return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
