// trellis with issue 33's plug-ins from trellis/plugins, the twin of fastify.js; FEATURES picks them (./config.js):
// cors, rateLimit (memoryStore, or redisStore on REDIS_URL), etag, compression (GZIP_LEVEL and BROTLI_QUALITY, else
// its defaults), websockets (a gateway at /ws/echo whose @OnMessage('echo') returns the data; websocket-guarded: a
// gateway at /ws/guarded under @Use(jwtAuth({ secret })), its echo handler under @Scopes('echo'), so the token is
// verified on the upgrade and the guard runs again, with the scope, on each message). Answers GET
// /tasks/{task_id}, GET /reports/tasks (20 KB) and GET /memory as fastify.js does. Run through register.js as
// apps/trellis.ts is.
import { BaseRouter, Get, HTTPException, Scopes, Use, router } from '../../../framework';
import { jwtAuth } from '../../../framework/auth';
import { compression, cors, etag, memoryStore, rateLimit, redisStore, websockets, type Plugin } from '../../../framework/plugins';
import { Int, Path } from '../../../framework/param';
import { OnMessage, gateway, type WebSocketClient } from '../../../framework/websocket';
import { tasks } from '../shared/store';
import { ECHO_PATH, ECHO_SCOPE, GUARDED_PATH, LIMIT, ORIGIN, PREFIXES, REPORT_PATH, SECRET, WINDOW_MS, featuresOf, levelsOf, redisUrl } from './config';
import { memoryAnswer } from './echo';
import { REPORT } from './payload';

class TaskRouter extends router('/tasks') {
  @Get('/{task_id}')
  one(@Path('task_id', { type: Int }) taskId: number) {
    const task = tasks.get(taskId);
    if (!task) throw new HTTPException(404, 'Task not found');
    return task;
  }
}

class ReportRouter extends router(REPORT_PATH) {
  @Get('/')
  all() {
    return REPORT;
  }
}

class MemoryRouter extends router('/memory') {
  @Get('/')
  now() {
    return memoryAnswer();
  }
}

// The data parameter typed `object`: taken as sent, as fastify.js echoes it (no DTO class to validate by).
class EchoGateway extends gateway(ECHO_PATH) {
  @OnMessage('echo')
  echo(_client: WebSocketClient, data: object) {
    return { event: 'echo', data };
  }
}

// The same echo behind a JWT: jwtAuth on the upgrade, and on each echo again with the handler's scope (its cache of
// verified tokens makes a repeat a lookup, not a signature check).
@Use(jwtAuth({ secret: SECRET }))
class GuardedEchoGateway extends gateway(GUARDED_PATH) {
  @OnMessage('echo')
  @Scopes(ECHO_SCOPE)
  echo(_client: WebSocketClient, data: object) {
    return { event: 'echo', data };
  }
}

const features = featuresOf();
const app = new BaseRouter({ title: 'bench' });
if (features.has('cors')) app.register(cors({ origins: [ORIGIN], headers: ['content-type', 'authorization'], maxAge: 600 }));
if (features.has('rate-limit')) app.register(rateLimit({ limit: LIMIT, window: WINDOW_MS, store: memoryStore() }));
if (features.has('redis-rate-limit')) app.register(rateLimit({ limit: LIMIT, window: WINDOW_MS, store: redisStore({ url: redisUrl(), prefix: PREFIXES.trellis }) }));
if (features.has('etag')) app.register(etag());
const constantHeaders = (name: string, headers: Record<string, string>) => ({
  name,
  register: (host: Parameters<Plugin['register']>[0]) =>
    host.onResponse((_request, response) => {
      for (const [header, value] of Object.entries(headers)) response.headers.set(header, value);
    }),
});
if (features.has('cors-headers')) app.register(constantHeaders('cors-headers', { vary: 'Origin', 'access-control-allow-origin': ORIGIN }));
if (features.has('rate-limit-headers')) {
  app.register(constantHeaders('rate-limit-headers', { 'ratelimit-policy': `"default";q=${LIMIT};w=60`, ratelimit: `"default";r=${LIMIT - 1};t=60` }));
}
if (features.has('compression')) {
  const { gzip, brotli } = levelsOf();
  app.register(compression({ threshold: 1024, ...(gzip === undefined ? {} : { gzipLevel: gzip }), ...(brotli === undefined ? {} : { brotliQuality: brotli }) }));
}
const gateways = [...(features.has('websocket') ? [EchoGateway] : []), ...(features.has('websocket-guarded') ? [GuardedEchoGateway] : [])];
// The WebSocket caps (1,000 a process, 100 a client address by default) raised out of reach, as Fastify has none:
// the idle cell opens --idle sockets (1,000) and the echo --connections (64), all from 127.0.0.1.
if (gateways.length) app.register(websockets({ gateways, maxConnections: 100_000, maxConnectionsPerClient: 100_000 }));
app.includeRouter(new TaskRouter()).includeRouter(new ReportRouter()).includeRouter(new MemoryRouter());
// listen()'s maxConnections (1,000 by default) counts HTTP connections only: a socket leaves it once upgraded to a
// WebSocket, so the idle cell's 1,000 WebSockets take none of it and its GET /memory always gets in. The default
// stays: at most 50 upgrades (a batch of the harness) and wrk's 64 connections are in it at once.
app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
