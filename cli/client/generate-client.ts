import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
  if (options.out !== undefined) refuseFile(resolve(options.out), join(options.out)); // before the seconds loading takes
  const { project, app } = loadProject(path, { logger: createLogger({ level: 'silent' }) });
  // A response whose type cannot be read: `trellis run` would refuse to start, and the client would say `unknown`.
  const [unshaped] = responseShapeProblems(app);
  if (unshaped) throw new CliError(runtimeMessages.run.appInvalid(project.display, unshaped.message));
  // Paths are shown as the user gave them: `--out` as typed, else the project's path and client/.
  const shown = options.out === undefined ? join(project.display, 'client') : join(options.out);
  const out = options.out === undefined ? join(project.dir, 'client') : resolve(options.out);
  refuseFile(out, shown);
  const files = await renderClient(app.openapi());
  if (!options.dryRun) makeFolder(out, shown);
  const written: string[] = [];
  for (const file of files) {
    if (!options.dryRun) write(join(out, file.name), file.text, join(shown, file.name));
    say(messages.client.file(join(shown, file.name), Buffer.byteLength(file.text)));
    written.push(join(out, file.name));
  }
  say(options.dryRun ? messages.client.dryRun : messages.client.next(shown));
  return written;
}

function refuseFile(out: string, shown: string): void {
  if (existsSync(out) && !statSync(out).isDirectory()) throw new CliError(messages.client.outIsFile(shown));
}

function makeFolder(out: string, shown: string): void {
  try {
    mkdirSync(out, { recursive: true });
  } catch (error) {
    throw new CliError(messages.client.cannotWrite(shown, (error as NodeJS.ErrnoException).code ?? String(error)));
  }
}

function write(file: string, text: string, shown: string): void {
  try {
    writeFileSync(file, text);
  } catch (error) {
    throw new CliError(messages.client.cannotWrite(shown, (error as NodeJS.ErrnoException).code ?? String(error)));
  }
}
