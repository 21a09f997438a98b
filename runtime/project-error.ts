/**
 * A project that cannot be opened, loaded or served: one line for the user (`routers/tasks.ts:12: ...`)
 * and the exit code. The runtime throws it; whoever runs it (the CLI, a built app's `main.js`) prints the
 * message on stderr and exits with the code.
 *
 * @example
 * ```ts
 * try {
 *   await serve('.');
 * } catch (error) {
 *   if (!(error instanceof ProjectError)) throw error;
 *   process.stderr.write(`trellis: ${error.message}\n`);
 *   process.exitCode = error.exitCode;
 * }
 * ```
 */
export class ProjectError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'ProjectError';
  }
}
