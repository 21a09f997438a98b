/**
 * trellis/plugins: the plug-in interface and the features built on it. Every feature trellis serves besides
 * routing (docs pages, health probes, metrics, static files, the favicon, templates, upload limits) registers
 * through `app.register(plugin)`, the same call a user's own plug-in makes; `AppOptions` and the app's sugar
 * methods (`mountStatic`, `favicon`, `templates`) register these for you.
 *
 * @example
 * ```ts
 * import { BaseRouter } from 'trellis';
 * import { docs, staticFiles, type Plugin } from 'trellis/plugins';
 *
 * const poweredBy: Plugin = { name: 'powered-by', register(host) { host.openapi((doc) => { doc.info['x-powered-by'] = 'trellis'; }); } };
 * const app = new BaseRouter({ docs: false }).register(docs({ path: '/api-docs' })).register(staticFiles('/assets', 'public')).register(poweredBy);
 * ```
 */
export type { Plugin, PluginHost } from './plugin/plugin';
export { docs } from './docs/plugin';
export { health } from './health/plugin';
export { metrics } from './metrics/plugin';
export { staticFiles, favicon } from './static/plugin';
export { templates } from './templates/plugin';
export { uploads } from './plugin/uploads';
export { cors } from './cors/plugin';
export { etag } from './etag/plugin';
export type { ETagOptions } from './etag/plugin';
export { compression } from './compression/plugin';
export type { CompressionOptions } from './compression/settings';
export { websockets } from './websocket/plugin';
export { connectRedis, RedisSettings } from './redis';
export type { ConnectRedisOptions } from './redis';
export { rateLimit, memoryStore, redisStore } from './rate-limit';
export type { RateLimitPluginOptions, MemoryStoreOptions, RedisStoreOptions, RateLimitStore, RateLimitHit, TrustProxy } from './rate-limit';
