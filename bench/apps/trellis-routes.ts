// trellis with generated routers (route-count scaling): includes every router exported by the
// `*.router.ts` files in ROUTES_DIR.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BaseRouter } from '../../framework/index';
import { isRouterClass } from '../../framework/inspect';

const dir = process.env.ROUTES_DIR ?? '';
const app = new BaseRouter({ title: 'routes' });
for (const file of readdirSync(dir).filter((name) => name.endsWith('.router.ts')).sort()) {
  for (const exported of Object.values(require(join(dir, file)) as Record<string, unknown>)) {
    if (isRouterClass(exported)) app.includeRouter(exported);
  }
}
app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
