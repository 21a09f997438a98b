/**
 * trellis: HTTP APIs written as router classes.
 *
 * @example
 * ```ts
 * import { router, Get, Post, BaseRouter } from 'trellis';
 * import { Path, Body } from 'trellis/param';
 *
 * class TaskRouter extends router('/tasks') {
 *   @Get('/{task_id}') one(@Path('task_id') id: number) { return { id }; }
 *   @Post('/') create(@Body() body: TaskIn) { return [body, 201]; }
 * }
 * const app = new BaseRouter({ title: 'Tasks API' }).includeRouter(new TaskRouter());
 * await app.listen({ port: 8000 });
 * ```
 */
import 'reflect-metadata';

export { router } from './router';
export type { RouterOptions } from './router';
export { Version } from './versioning/version';
export type { VersioningOptions } from './versioning/options';
export type { OpenAPIOptions } from './versioning/document';
export { BaseRouter } from './app';
export { Get, Post, Put, Patch, Delete, Head, Options } from './decorators/route';
export { Use } from './decorators/use';
export { Scopes } from './decorators/scopes';
export { Cors } from './decorators/cors';
export type { CorsOptions } from './cors/options';
export { ETag } from './decorators/etag';
export { RateLimit } from './decorators/rate-limit';
export type { RateLimitOptions } from './rate-limit/policy';
export { Middleware } from './middleware';
export type { CallNext } from './middleware';
export { Request } from './request';
export type { RequestState, User } from './request';
export { Injectable } from './decorators/injectable';
export type { InjectableOptions, Scope } from './injection/scope';
export type { RequestOutcome, OnRequestEnd } from './injection/outcome';
export { Inject } from './injection/inject';
export { InjectionToken } from './injection/token';
export { Response, JSONResponse, HTMLResponse, RedirectResponse } from './response';
export { FileResponse } from './responses/file';
export { StreamingResponse } from './responses/streaming';
export { EventSourceResponse } from './responses/event-source';
export { TemplateResponse } from './templates/template-response';
export { HTTPException } from './http-exception';
export { Settings } from './settings';
export { Config } from './config';
export { Form } from './uploads/form';
export { listen, serverUrl, closeGracefully } from './server';
