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

export { router, Controller, isRouterClass } from './router';
export { Get, Post, Put, Patch, Delete, Head, Options } from './decorators/route';
export { Use } from './decorators/use';
export { Injectable } from './decorators/injectable';
export { BaseRouter } from './app';
export type { AppOptions, RequestListener } from './app';
export type { DocsOptions } from './docs';
export type { MetricsOptions } from './metrics';
export type { OpenAPIDocument, DocCommentTable, ClassDocs, MethodDocs } from './openapi';
export { parseDocComments } from './openapi/doc-comments';
export type { TypeTable, MethodTypes, ReturnShape, StatusFact, TypeSchema } from './source/types/table';
export { Middleware } from './middleware';
export type { CallNext, MiddlewareLike } from './middleware';
export { apiKeyHeader, basicAuth, bearerAuth } from './security';
export type { SecurityDeclaration, SecurityScheme } from './security';
export { ExpressMiddlewareAdapter } from './express/adapter';
export type { ExpressMiddleware } from './core/express-middleware';
export { Request } from './request';
export type { RequestState } from './request';
export { Response, JSONResponse, HTMLResponse, RedirectResponse, ResponseHeaders } from './response';
export type { ResponseInit, ResponseBody } from './response';
export { FileResponse } from './responses/file';
export type { FileResponseOptions } from './responses/file';
export { StreamingResponse } from './responses/streaming';
export type { StreamingResponseInit, StreamSource } from './responses/streaming';
export { EventSourceResponse } from './responses/event-source';
export type { EventSourceInit } from './responses/event-source';
export type { ServerSentEvent } from './responses/server-sent-event';
export type { CookieOptions } from './cookies';
export { render, TemplateResponse } from './templates/template-response';
export type { TemplateOptions } from './templates/engine';
export { Form } from './uploads/form';
export type { FormFile, FormValue } from './uploads/form';
export type { UploadLimits } from './uploads/limits';
export type { StaticMount } from './static/mount';
export { HTTPException, RequestValidationError } from './http-exception';
export type { ValidationDetail } from './http-exception';
export { TrellisError, ERROR_CODES } from './framework-error';
export type { ErrorCode } from './framework-error';
export type { ExceptionHandler } from './exception-handlers';
export type { Logger, LogFn } from './core/logger';
export { createLogger, deferredLogger } from './logger';
export type { LoggerOptions, LogDestination } from './logger';
export type { RouteInfo } from './routing/route-info';
export type { RouteOptions } from './metadata';
export type { HttpMethod, Class } from './core/types';
export { hasValidationRules } from './pipeline/validate';
export { Config, ConfigValueError } from './config';
export { ConfigSectionError } from './config-section';
export type { ConfigProblem, SectionOptions } from './config-section';
export { Settings } from './settings';
export { listen, serverUrl, closeGracefully } from './server';
export type { ListenOptions, Server, Stoppable } from './server';
export { Inject } from './injection/inject';
export { InjectionToken } from './injection/token';
export type { Token } from './injection/token';
export type { Provider, ValueProvider, ClassProvider, FactoryProvider } from './injection/provider';
export type { OnStartup, OnShutdown, HealthCheck } from './lifecycle/hooks';
export type { AppState } from './lifecycle/state';
export type { HealthOptions } from './health';
export type { Readiness } from './health/readiness';
export type { Plugin, PluginHost } from './plugin/plugin';
export { docs } from './docs/plugin';
export { health } from './health/plugin';
export { metrics } from './metrics/plugin';
export { staticFiles, favicon } from './static/plugin';
export { templates } from './templates/plugin';
export { uploads } from './plugin/uploads';
