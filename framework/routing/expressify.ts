import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

const merged = new WeakMap<object, WeakMap<object, object>>();

/**
 * Gives a request/response pair Express's methods (`req.get`, `res.status().json()`, ...) as Express's own
 * init does, but on top of the objects' current prototypes rather than instead of them, so responses from
 * test injectors (light-my-request) keep their own `write`/`end`. One merged prototype per pair, cached.
 */
export function expressify(app: Express, req: IncomingMessage, res: ServerResponse): void {
  if ((req as { app?: unknown }).app === app) return;
  Object.setPrototypeOf(req, mergedPrototype(Object.getPrototypeOf(req), app.request));
  Object.setPrototypeOf(res, mergedPrototype(Object.getPrototypeOf(res), app.response));
  Object.assign(req, { res });
  Object.assign(res, { req, locals: (res as { locals?: object }).locals ?? Object.create(null) });
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
