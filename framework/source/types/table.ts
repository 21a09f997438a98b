import type { RouteInfo } from '../../routing/route-info';

/** A JSON Schema (draft 2020-12), possibly with `$ref: '#/components/schemas/Name'` into {@link TypeTable.schemas}. */
export type TypeSchema = { [keyword: string]: unknown };

/**
 * What a handler's return type says it answers on success, read from its declared (else inferred) return type
 * with `Promise<T>` unwrapped:
 * - `json`: a JSON body of `schema` (`status` when the handler returns a tuple `[body, 201]` typed as such);
 * - `empty`: `void`/`undefined` (a 204);
 * - `html`: `HTMLResponse` or what `render()` returns; `redirect`: `RedirectResponse` (307 + `Location`);
 * - `file`, `stream`, `events`: `FileResponse`, `StreamingResponse`, an SSE response;
 * - `response`: another `Response` (content unknown).
 */
export type ReturnShape =
  | { kind: 'json'; schema: TypeSchema; status?: number }
  | { kind: 'empty' | 'html' | 'redirect' | 'file' | 'stream' | 'events' | 'response'; status?: number };

/** A status a handler's body can answer besides its success: `throw new HTTPException(404, ...)`, `return [{ error }, 404]`. */
export interface StatusFact {
  status: number;
  /** The body's schema when the handler returns one with the status (a tuple); else the `{ error }` body. */
  schema?: TypeSchema;
  /** The message, when it is a literal (`'Task not found'`), for the response's description. */
  message?: string;
}

/** What the source says about one handler method, beyond its doc comment. */
export interface MethodTypes {
  returns?: ReturnShape;
  statuses?: StatusFact[];
  /** Names of the error classes its body throws (`throw new NotFoundError()`), mapped to statuses through the app's exception handlers. */
  throws?: string[];
}

/**
 * The return types, statuses and named schemas of an app's handlers, read from their TypeScript sources
 * (in development, lazily and cached by file content) or precomputed by `trellis build` into its manifest.
 * `files` is keyed like a route's `source.file` (an absolute path; relative to the build in a manifest), then by
 * `Class.method` of the class that declares the method.
 *
 * @example
 * ```ts
 * const sourceTypes: TypeTable = {
 *   files: { '/srv/app/routers/tasks.ts': { 'TaskRouter.one': { returns: { kind: 'json', schema: { $ref: '#/components/schemas/Task' } }, statuses: [{ status: 404 }] } } },
 *   schemas: { Task: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] } },
 * };
 * ```
 */
export interface TypeTable {
  files: Record<string, Record<string, MethodTypes>>;
  schemas: Record<string, TypeSchema>;
}

/** The facts of a route's handler: in the file its decorators ran in, under the router's class or the nearest ancestor declaring the method. */
export function methodTypes(table: TypeTable | undefined, route: RouteInfo): MethodTypes | undefined {
  const file = route.source?.file;
  if (!table || !file || typeof route.handlerName !== 'string') return undefined;
  const methods = Object.hasOwn(table.files, file) ? table.files[file] : undefined;
  if (!methods) return undefined;
  for (let c: Function | null = route.router; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    const key = `${c.name}.${route.handlerName}`;
    if (Object.hasOwn(methods, key)) return methods[key];
  }
  return undefined;
}
