import { spawn } from 'node:child_process';

/** How `npm install` in a new project ended: `reason` is one line, for the user. */
export type InstallOutcome = { ok: true } | { ok: false; reason: string };

/** The command `installDependencies` runs, also what a user types to retry. */
export const INSTALL_COMMAND = 'npm install';

/**
 * Runs `npm install --no-audit --no-fund` in `root` with npm's output captured, not shown. Never throws: a
 * failure (npm missing, a registry or tarball error) comes back as the reason npm gave, in one line, and the
 * project stays as it is.
 *
 * @example
 * ```ts
 * const outcome = await installDependencies('/work/demo');
 * if (!outcome.ok) console.error(`npm install failed: ${outcome.reason}`);
 * ```
 */
export function installDependencies(root: string, npm = 'npm'): Promise<InstallOutcome> {
  return new Promise((resolve) => {
    // npm is npm.cmd on Windows, which only a shell runs.
    const child = spawn(npm, ['install', '--no-audit', '--no-fund'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      resolve({ ok: false, reason: error.code === 'ENOENT' ? `${npm} was not found` : error.message });
    });
    child.on('close', (code, signal) => {
      if (code === 0) resolve({ ok: true });
      else resolve({ ok: false, reason: npmFailure(output) ?? `npm exited with ${code ?? signal}` });
    });
  });
}

// npm's error block starts with lines of metadata (`npm error code E404`, `syscall`, `path`, `errno`) and
// ends with where the log is; the first other line says what went wrong.
const METADATA = /^(?:code|syscall|path|errno|signal|command|cwd|A complete log|Log files|\s*$)/;

/**
 * The line that says why npm failed, from its output: the first `npm error` (npm 9+) or `npm ERR!` line that is
 * not metadata, without the prefix and npm's lowercase tag (`enoent ENOENT: no such file` -> `ENOENT: no such file`).
 *
 * @example
 * ```ts
 * npmFailure('npm error code TAR_BAD_ARCHIVE\nnpm error TAR_BAD_ARCHIVE: Unrecognized archive format\n');
 * // 'TAR_BAD_ARCHIVE: Unrecognized archive format'
 * ```
 */
export function npmFailure(output: string): string | undefined {
  for (const line of output.split(/\r?\n/)) {
    const match = /^npm (?:error|ERR!) ?(.*)$/.exec(line);
    if (!match || METADATA.test(match[1])) continue;
    // npm prefixes the message with a lowercase tag: `enoent ENOENT: ...`, `notarget No matching version ...`.
    return match[1].replace(/^[a-z]+ (?=[A-Z])/, '').trim();
  }
  return undefined;
}
