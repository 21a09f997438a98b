import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

let edge: Express | undefined;
const merged = new WeakMap<object, WeakMap<object, object>>();

/**
 * Gives a request/response pair Express's methods (`req.get`, `res.status().json()`, ...) for Express
 * middleware running in a trellis pipeline, as Express's own init does, but on top of the objects' current
 * prototypes rather than instead of them, so responses from test injectors (light-my-request) keep their own
 * `write`/`end`. The Express instance behind `req.app` exists only for these prototypes and its settings;
 * it is created the first time Express middleware runs and never routes a request. Already done (the app is
 * mounted in an Express app, or an earlier middleware did it): nothing to do.
 */
export function expressify(req: IncomingMessage, res: ServerResponse): void {
  if ((req as { app?: unknown }).app !== undefined) return;
  const app = (edge ??= createEdge());
  Object.setPrototypeOf(req, mergedPrototype(Object.getPrototypeOf(req), app.request));
  Object.setPrototypeOf(res, mergedPrototype(Object.getPrototypeOf(res), app.response));
  Object.assign(req, { res });
  Object.assign(res, { req, locals: (res as { locals?: object }).locals ?? Object.create(null) });
}

function createEdge(): Express {
  const app = (require('express') as typeof import('express'))();
  app.disable('x-powered-by');
  return app;
}

function mergedPrototype(base: object, expressProto: object): object {
  let byExpress = merged.get(base);
  if (!byExpress) merged.set(base, (byExpress = new WeakMap()));
  let proto = byExpress.get(expressProto);
  if (!proto) {
    proto = Object.create(base) as object;
    // app.request/app.response are Object.create(express.request, { app }): copy both levels.
    const parent = Object.getPrototypeOf(expressProto) as object;
    Object.defineProperties(proto, Object.getOwnPropertyDescriptors(parent));
    Object.defineProperties(proto, Object.getOwnPropertyDescriptors(expressProto));
    byExpress.set(expressProto, proto);
  }
  return proto;
}
