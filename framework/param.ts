/**
 * Parameter decorators: where a handler argument comes from; and the 422 their validation answers with,
 * `RequestValidationError`, which a handler may throw for a check of its own.
 *
 * @example
 * ```ts
 * import { Path, Query, Header, Body, Req, Int, UploadedFile, Depends } from 'trellis/param';
 *
 * @Get('/{task_id}') one(@Path('task_id', { type: Int }) id: number,
 *                        @Query('verbose', { default: false }) verbose: boolean) { ... }
 * ```
 */
export { Path, Query, Header, Body, Req, Int, UploadedFile } from './decorators/parameter';
export { Depends } from './decorators/depends';
export type { PathOptions, ValueOptions, BodyOptions, ClassValueOptions } from './decorators/parameter';
export type { ValueConstraints } from './core/value-constraints';
export { RequestValidationError } from './http-exception';
export type { ValidationDetail } from './http-exception';
