// The types BaseRouter's public methods are declared with, gathered in one type-only module: the app's vocabulary,
// no code (app.ts stays at a handful of imports, each a part it uses).
export type { Class } from './core/types';
export type { Logger } from './core/logger';
export type { ExceptionHandler } from './exception-handlers';
export type { Readiness } from './health/readiness';
export type { Provider } from './injection/provider';
export type { Token } from './injection/token';
export type { AppState } from './lifecycle/state';
export type { MiddlewareLike } from './middleware';
export type { OpenAPIDocument } from './openapi/types';
export type { JsonLimits } from './pipeline/body';
export type { Plugin } from './plugin/plugin';
export type { Controller } from './router';
export type { RouteInfo } from './routing/route-info';
