import { existsSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { defaultTrellisRange, trellisManifest } from './dependencies';
import { GeneratorError } from './generator-error';

// npm reads these as paths on disk (npm-package-arg's rules): `file:x`, `./x`, `../x`, `/x`, `~/x`, `C:\x`,
// and anything ending like a tarball.
const PATH_LIKE = /^(?:\.{1,2}(?:[/\\]|$)|~[/\\]|[/\\]|[a-zA-Z]:)/;
const TARBALL = /\.(?:tgz|tar\.gz|tar)$/i;
// `https:`, `git+ssh:`, `github:`, `npm:` (a one-letter scheme is a Windows drive).
const URL_LIKE = /^[a-zA-Z][a-zA-Z0-9+.-]+:/;
// A version, a range or a tag: what npm looks up in the registry for trellis-cli as for trellis.
const REGISTRY_SPEC = /^[\w.^~<>=|*+ -]+$/;

/** The folder of a project where `create` copies the tarballs it depends on. */
export const VENDOR_DIR = 'vendor';

export interface TrellisSpecs {
  /** What package.json says for `trellis` (dependencies). */
  trellis: string;
  /** What package.json says for `trellis-cli` (devDependencies). */
  cli: string;
  /** Tarballs to copy into the project's vendor/ folder (absolute paths), which the specs name. */
  vendored: string[];
}

/**
 * What a generated `package.json` says for `trellis` and `trellis-cli`, from `--trellis-spec`:
 * - none: the default range for both (`^0.1.0-pre.1`);
 * - a local tarball (relative to `cwd`): it and the trellis-cli tarball beside it (`trellis-cli-0.1.0-pre.1.tgz`
 *   next to `trellis-0.1.0-pre.1.tgz`, as `npm run pack` writes them) are copied into the project's vendor/ and
 *   named `file:vendor/...`, so the project folder alone installs (`npm ci` on a server, from a copy);
 * - a local folder: `file:` + its path relative to the project `root` (a link, not a copy), trellis-cli from
 *   the registry;
 * - a version, a range or a tag: as given for both; any other npm spec (git, https): as given for trellis,
 *   trellis-cli from the registry.
 * Throws `GeneratorError('invalid-trellis-spec')` for an empty spec, a local path that does not exist, and a
 * tarball without its trellis-cli beside it.
 *
 * @example
 * ```ts
 * trellisSpecs(undefined, '/work', '/work/demo');
 * // { trellis: '^0.1.0-pre.1', cli: '^0.1.0-pre.1', vendored: [] }
 * trellisSpecs('./packs/trellis-0.1.0-pre.1.tgz', '/work', '/work/demo');
 * // { trellis: 'file:vendor/trellis-0.1.0-pre.1.tgz', cli: 'file:vendor/trellis-cli-0.1.0-pre.1.tgz',
 * //   vendored: ['/work/packs/trellis-0.1.0-pre.1.tgz', '/work/packs/trellis-cli-0.1.0-pre.1.tgz'] }
 * trellisSpecs('github:me/trellis', '/work', '/work/demo');
 * // { trellis: 'github:me/trellis', cli: '^0.1.0-pre.1', vendored: [] }
 * ```
 */
export function trellisSpecs(spec: string | undefined, cwd: string, root: string): TrellisSpecs {
  if (spec === undefined) return { trellis: defaultTrellisRange, cli: defaultTrellisRange, vendored: [] };
  const trimmed = spec.trim();
  if (trimmed === '') throw new GeneratorError('invalid-trellis-spec', spec, 'it is empty');
  const path = localPath(trimmed);
  if (path === undefined) return { trellis: trimmed, cli: REGISTRY_SPEC.test(trimmed) ? trimmed : defaultTrellisRange, vendored: [] };
  const absolute = resolve(cwd, path.startsWith('~') ? path.replace('~', process.env.HOME ?? '~') : path);
  if (!existsSync(absolute)) throw new GeneratorError('invalid-trellis-spec', spec, `${absolute} does not exist`);
  if (statSync(absolute).isDirectory()) {
    const fromProject = relative(root, absolute).split(sep).join('/');
    return { trellis: `file:${isAbsolute(fromProject) ? fromProject : fromProject || '.'}`, cli: defaultTrellisRange, vendored: [] };
  }
  const cli = join(dirname(absolute), cliTarballName(basename(absolute)));
  if (!existsSync(cli)) throw new GeneratorError('invalid-trellis-spec', spec, `${cli} is not beside it (\`npm run pack\` writes both)`);
  const vendored = (file: string) => `file:${VENDOR_DIR}/${basename(file)}`;
  return { trellis: vendored(absolute), cli: vendored(cli), vendored: [absolute, cli] };
}

/** `trellis-0.2.0.tgz` -> `trellis-cli-0.2.0.tgz`; a tarball named otherwise -> trellis-cli of this version. */
function cliTarballName(trellis: string): string {
  const version = /^trellis-(\d.*)\.(?:tgz|tar\.gz|tar)$/i.exec(trellis)?.[1] ?? trellisManifest.version;
  return `trellis-cli-${version}.tgz`;
}

function localPath(spec: string): string | undefined {
  if (spec.startsWith('file:')) return spec.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
  if (PATH_LIKE.test(spec)) return spec;
  if (URL_LIKE.test(spec)) return undefined;
  if (TARBALL.test(spec)) return spec;
  return undefined;
}
