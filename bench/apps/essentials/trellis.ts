// trellis with issue 33's plug-ins from trellis/plugins, the twin of fastify.js; FEATURES picks them (./config.js):
// cors, rateLimit (memoryStore, or redisStore on REDIS_URL), etag, compression (GZIP_LEVEL and BROTLI_QUALITY, else
// its defaults), websockets (a gateway at /ws/echo whose @OnMessage('echo') returns the data). Answers GET
// /tasks/{task_id}, GET /reports/tasks (20 KB) and GET /memory as fastify.js does. Run through register.js as
// apps/trellis.ts is.
import { BaseRouter, Get, HTTPException, router } from '../../../framework';
import { compression, cors, etag, memoryStore, rateLimit, redisStore, websockets, type Plugin } from '../../../framework/plugins';
import { Int, Path } from '../../../framework/param';
import { OnMessage, gateway, type WebSocketClient } from '../../../framework/websocket';
import { tasks } from '../shared/store';
import { ECHO_PATH, LIMIT, ORIGIN, PREFIXES, REPORT_PATH, WINDOW_MS, featuresOf, levelsOf, redisUrl } from './config';
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
if (features.has('websocket')) app.register(websockets({ gateways: [EchoGateway] }));
app.includeRouter(new TaskRouter()).includeRouter(new ReportRouter()).includeRouter(new MemoryRouter());
// listen()'s default maxConnections (1,000) counts upgraded sockets: the idle cell's 1,000 WebSockets would leave no
// room for its GET /memory. Fastify sets no limit.
app.listen({ host: '127.0.0.1', port: Number(process.env.PORT), maxConnections: 100_000 });
