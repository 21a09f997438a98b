import { join } from 'node:path';

/** Something wrong in a project file, located for the user: `routers/tasks.ts:12: message`. */
export interface Problem {
  /** Relative to the project, with `/` (`config.yaml`, `routers/tasks.ts`). */
  file: string;
  /** 1-based. */
  line: number;
  message: string;
  /** The framework's error code when the framework found it (`TRELLIS_ERR_DUPLICATE_ROUTE`). */
  code?: string;
}

/**
 * One line: the file as the user reaches it from where they ran the command.
 *
 * @example
 * ```ts
 * formatProblem('demo', { file: 'routers/tasks.ts', line: 12, message: 'duplicate route' });
 * // 'demo/routers/tasks.ts:12: duplicate route'
 * ```
 */
export function formatProblem(projectDisplay: string, problem: Problem): string {
  return `${join(projectDisplay, problem.file)}:${problem.line}: ${problem.message}`;
}
