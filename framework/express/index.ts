/**
 * trellis at the edge of Express: Express/Connect middleware inside a trellis app, and a trellis app inside
 * an Express app. Nothing here is loaded by an app that uses neither.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import cors from 'cors';
 *
 * app.addMiddleware(cors());                 // Express middleware, run by trellis's pipeline
 * const server = express();
 * server.use('/api', app.handler);           // the trellis app, mounted in Express (docs under /api/docs)
 * server.get('/api/legacy', legacy);         // what the trellis app has no route for goes on to Express
 * ```
 */
export { ExpressMiddlewareAdapter } from './adapter';
export type { ExpressMiddleware } from '../core/express-middleware';
