import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { responseShapeProblems } from 'trellis/inspect';
import { createLogger, loadProject, runtimeMessages } from 'trellis/internal';
import { CliError } from '../cli-error';
import { messages } from '../messages';
import { renderClient } from './render-client';

/** `trellis client`'s flags. */
export interface ClientOptions {
  /** The output folder, from where the command runs; default `<project>/client`. */
  out?: string;
  /** List the files, write nothing. */
  dryRun?: boolean;
}

/**
 * `trellis client [--out dir] [path]`: assembles the project as `trellis run` would (its `.env`, config.yaml,
 * routers; no startup hook runs, no port opens), takes the app's OpenAPI document and writes the typed client
 * (`schema.d.ts`, `index.ts`) into the output folder, one line per file through `say`. What stops it is one line:
 * not a project, an app that does not load (a `ProjectError`) or would not start (a response type it cannot read),
 * an output path that is a file.
 *
 * @example
 * ```ts
 * await generateClient('.', { out: '../web/src/api' }, console.log); // '  WRITE ../web/src/api/schema.d.ts (2130 bytes)', ...
 * ```
 */
export async function generateClient(path: string, options: ClientOptions, say: (line: string) => void): Promise<string[]> {
  if (options.out !== undefined) refuseFile(resolve(options.out)); // before the seconds loading takes
  const { project, app } = loadProject(path, { logger: createLogger({ level: 'silent' }) });
  // A response whose type cannot be read: `trellis run` would refuse to start, and the client would say `unknown`.
  const [unshaped] = responseShapeProblems(app);
  if (unshaped) throw new CliError(runtimeMessages.run.appInvalid(project.display, unshaped.message));
  const out = options.out === undefined ? join(project.dir, 'client') : resolve(options.out);
  refuseFile(out);
  const files = await renderClient(app.openapi());
  if (!options.dryRun) makeFolder(out);
  const written: string[] = [];
  for (const file of files) {
    const target = join(out, file.name);
    if (!options.dryRun) writeFileSync(target, file.text);
    say(messages.client.file(shown(target), Buffer.byteLength(file.text)));
    written.push(target);
  }
  say(options.dryRun ? messages.client.dryRun : messages.client.next(shown(out)));
  return written;
}

function refuseFile(out: string): void {
  if (existsSync(out) && !statSync(out).isDirectory()) throw new CliError(messages.client.outIsFile(shown(out)));
}

function makeFolder(out: string): void {
  try {
    mkdirSync(out, { recursive: true });
  } catch (error) {
    throw new CliError(messages.client.cannotWrite(shown(out), (error as NodeJS.ErrnoException).code ?? String(error)));
  }
}

/** A path as the user sees it: relative to where the command runs when inside it. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}
