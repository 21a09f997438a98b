// Leaf: the framework's most shared types. Imports nothing.

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** A scalar type a path, query or header value can be converted to. */
export type ScalarType = 'string' | 'number' | 'integer' | 'boolean';
/**
 * A class whose instances are `T` (a router, service, middleware or DTO class).
 *
 * @example
 * ```ts
 * const services: Class[] = [TaskService, UserService];
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Class<T = any> = new (...args: any[]) => T;

/**
 * A place in a source file: an absolute path and a 1-based line.
 *
 * @example
 * ```ts
 * const where: SourceLocation = { file: '/home/me/demo/routers/tasks.ts', line: 17 };
 * ```
 */
export interface SourceLocation {
  file: string;
  line: number;
}
