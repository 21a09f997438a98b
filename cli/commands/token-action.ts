import { isScopeName, signToken } from 'trellis/auth';
import { openProject } from 'trellis/internal';
import { CliError } from '../cli-error';
import { messages } from '../messages';

/** The options of `trellis token` as commander parses them. */
export interface TokenFlags {
  /** Each `--scope`, in order; undefined without one. */
  scope?: string[];
  sub?: string;
  expires?: string;
}

/** The subject of a token minted without `--sub`. */
export const DEFAULT_SUBJECT = 'dev';
/** The lifetime of a token minted without `--expires`. */
export const DEFAULT_EXPIRES = '1h';

/**
 * `trellis token`: an HS256 token signed with the project's `JWT_SECRET`, read as `trellis run` reads it (the
 * environment, else the project's `.env`; this process's environment is left as it is), carrying `scope` (the
 * `--scope` values, space-separated), `sub` and `exp`. Refuses, with one line, a folder that is not a project, a
 * project without `JWT_SECRET`, and a bad `--expires` or `--scope`.
 *
 * @example
 * ```ts
 * const token = await mintToken('.', { scope: ['tasks:write'], expires: '30m' });
 * ```
 */
export async function mintToken(path: string, flags: TokenFlags): Promise<string> {
  const expiresIn = flags.expires ?? DEFAULT_EXPIRES;
  if (!/^[1-9]\d{0,5}[smhdw]$/.test(expiresIn)) throw new CliError(messages.token.badExpires(expiresIn));
  const scopes = flags.scope ?? [];
  for (const scope of scopes) {
    if (!isScopeName(scope)) throw new CliError(messages.token.badScope(scope));
  }
  const env = { ...process.env };
  const project = openProject(path, { env });
  const secret = env.JWT_SECRET;
  if (!secret) throw new CliError(messages.token.noSecret(project.display));
  return signToken({ secret, scopes: scopes.length ? scopes : undefined, subject: flags.sub ?? DEFAULT_SUBJECT, expiresIn });
}
