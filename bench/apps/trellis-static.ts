// trellis serving files (bench/static.js): one JSON route, `mountStatic('/static', STATIC_DIR)` and the docs
// (on by default: /docs/assets/swagger-ui.css is one of their assets). Run through register.js.
import { BaseRouter, Get, router } from '../../framework';

class HealthRouter extends router('/health') {
  @Get()
  health() {
    return { ok: true };
  }
}

const dir = process.env.STATIC_DIR;
if (!dir) throw new Error('STATIC_DIR is not set (bench/static.js sets it)');
const app = new BaseRouter({ title: 'bench static' }).includeRouter(new HealthRouter()).mountStatic('/static', dir);
app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
