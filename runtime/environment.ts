import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { messages } from './messages';
import { ProjectError } from './project-error';
import { hostCheck, portCheck } from './config-schema';
import type { Environment } from './env-lookup';

/**
 * The development environment file at the project's root (never read by a build).
 *
 * @example
 * ```ts
 * existsSync(join(project.dir, DOTENV_FILE));
 * ```
 */
export const DOTENV_FILE = '.env';
const MAX_BYTES = 1024 * 1024;

/**
 * Development only (`trellis run`, `test`, `doctor`): the variables of `<dir>/.env` that the environment does
 * not already set are added to `process.env`, so config.yaml's `${NAME}` and the project's own code see them.
 * The real environment wins, as with dotenv; a built app (`node dist/main.js`) reads no `.env`.
 * Returns the names it set.
 *
 * @example
 * ```ts
 * loadDotEnv('/home/me/demo'); // ['ADMIN_TOKEN'] (the names it set)
 * ```
 */
export function loadDotEnv(dir: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const file = join(dir, DOTENV_FILE);
  if (!existsSync(file)) return [];
  if (!statSync(file).isFile() || statSync(file).size > MAX_BYTES) throw new ProjectError(messages.env.unreadable(file));
  const set: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(readFileSync(file, 'utf8')))) {
    if (env[name] !== undefined) continue;
    env[name] = value;
    set.push(name);
  }
  return set;
}

/**
 * `HOST` and `PORT` from the environment, checked like `--host`/`--port` (which win over them; they win over
 * config.yaml's `server.host`/`server.port`). An empty variable counts as unset.
 *
 * @example
 * ```ts
 * addressFromEnvironment({ PORT: '8080' }); // { host: undefined, port: 8080 }
 * ```
 */
export function addressFromEnvironment(env: Environment = process.env): { host?: string; port?: number } {
  const host = env.HOST || undefined;
  const portText = env.PORT || undefined;
  if (host !== undefined && hostCheck(host)) throw new ProjectError(messages.env.badHost(host));
  const port = portText === undefined ? undefined : /^\d+$/.test(portText) ? Number(portText) : NaN;
  if (port !== undefined && portCheck(port)) throw new ProjectError(messages.env.badPort(portText!));
  return { host, port };
}
