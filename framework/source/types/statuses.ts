import type * as TS from 'typescript';
import type { StatusFact } from './table';

/**
 * The statuses a handler's body can answer besides its success (`throw new HTTPException(404, ...)`, a returned
 * `[{ error }, 404]`) and the names of the other classes it throws. Placeholder: the STATUS helper writes the body.
 *
 * @example
 * ```ts
 * const { statuses, throws } = statusesOf(ts, program.getTypeChecker(), method);
 * ```
 */
export function statusesOf(ts: typeof TS, checker: TS.TypeChecker, method: TS.MethodDeclaration): { statuses: StatusFact[]; throws: string[] } {
  void ts;
  void checker;
  void method;
  return { statuses: [], throws: [] };
}
