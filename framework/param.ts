/**
 * Parameter decorators: where a handler argument comes from.
 *
 * @example
 * ```ts
 * import { Path, Query, Header, Body, Req, Int, UploadedFile } from 'trellis/param';
 *
 * @Get('/{task_id}') one(@Path('task_id', { type: Int }) id: number,
 *                        @Query('verbose', { default: false }) verbose: boolean) { ... }
 * ```
 */
export { Path, Query, Header, Body, Req, Int, UploadedFile } from './decorators/parameter';
export type { PathOptions, ValueOptions, BodyOptions } from './decorators/parameter';
export type { ValueConstraints } from './core/value-constraints';
