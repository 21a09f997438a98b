/** Why a generator refused to run; the CLI turns each reason into a line of text (cli/messages.ts). */
export type GeneratorFailure =
  | 'invalid-project-name'
  | 'target-not-empty'
  | 'target-not-a-folder'
  | 'invalid-name'
  | 'invalid-path'
  | 'invalid-port'
  | 'unknown-example'
  | 'unknown-auth'
  | 'not-a-project'
  | 'file-exists'
  | 'render-failed'
  | 'invalid-trellis-spec'
  | 'table-exists'
  | 'no-tables-interface';

/**
 * A generator's refusal or failure, with a machine-readable `reason` and the value it concerns
 * (a name, a path, a port). Nothing has been written when it is thrown.
 *
 * @example
 * ```ts
 * try { await addArtifact({ kind: 'router', name: 'orders', dir: '.' }); }
 * catch (e) { if (e instanceof GeneratorError && e.reason === 'file-exists') console.error(`${e.subject} exists`); }
 * ```
 */
export class GeneratorError extends Error {
  constructor(
    readonly reason: GeneratorFailure,
    /** The name, path or value the failure is about. */
    readonly subject: string,
    /** A detail from a library (e.g. why npm rejects a name), when there is one. */
    readonly detail = '',
  ) {
    super(`${reason}: ${subject}${detail ? ` (${detail})` : ''}`);
    this.name = 'GeneratorError';
  }
}
