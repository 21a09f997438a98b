/** A failure to report to the user as one line on stderr, with an exit code. Only `main` exits. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
