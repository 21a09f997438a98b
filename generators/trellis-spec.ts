import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { defaultTrellisRange } from './dependencies';
import { GeneratorError } from './generator-error';

// npm reads these as paths on disk (npm-package-arg's rules): `file:x`, `./x`, `../x`, `/x`, `~/x`, `C:\x`,
// and anything ending like a tarball.
const PATH_LIKE = /^(?:\.{1,2}(?:[/\\]|$)|~[/\\]|[/\\]|[a-zA-Z]:)/;
const TARBALL = /\.(?:tgz|tar\.gz|tar)$/i;
// `https:`, `git+ssh:`, `github:`, `npm:` (a one-letter scheme is a Windows drive).
const URL_LIKE = /^[a-zA-Z][a-zA-Z0-9+.-]+:/;

/**
 * What a generated `package.json` says for `trellis`: the default range without `spec`; a local tarball or
 * folder (`--trellis-spec ../trellis-0.1.0.tgz`, relative to `cwd`) as `file:` + its path RELATIVE to the
 * project `root`, so the project holds no path of this machine and moves with its neighbours; any other npm
 * spec (a version, a tag, a git or https URL) as given. Throws `GeneratorError('invalid-trellis-spec')` for an
 * empty spec and a local path that does not exist.
 *
 * @example
 * ```ts
 * trellisDependency(undefined, '/work', '/work/demo');             // '^0.1.0-pre.1'
 * trellisDependency('./trellis.tgz', '/work', '/work/demo');       // 'file:../trellis.tgz'
 * trellisDependency('github:me/trellis', '/work', '/work/demo');   // 'github:me/trellis'
 * ```
 */
export function trellisDependency(spec: string | undefined, cwd: string, root: string): string {
  if (spec === undefined) return defaultTrellisRange;
  const trimmed = spec.trim();
  if (trimmed === '') throw new GeneratorError('invalid-trellis-spec', spec, 'it is empty');
  const path = localPath(trimmed);
  if (path === undefined) return trimmed;
  const absolute = resolve(cwd, path.startsWith('~') ? path.replace('~', process.env.HOME ?? '~') : path);
  if (!existsSync(absolute)) throw new GeneratorError('invalid-trellis-spec', spec, `${absolute} does not exist`);
  const fromProject = relative(root, absolute).split(sep).join('/');
  return `file:${isAbsolute(fromProject) ? fromProject : fromProject || '.'}`;
}

function localPath(spec: string): string | undefined {
  if (spec.startsWith('file:')) return spec.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
  if (PATH_LIKE.test(spec)) return spec;
  if (URL_LIKE.test(spec)) return undefined;
  if (TARBALL.test(spec)) return spec;
  return undefined;
}
