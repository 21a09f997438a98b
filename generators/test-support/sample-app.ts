import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BaseRouter, Config } from '../../framework/index';
import { createLogger } from '../../framework/logger';
import type { Class } from '../../framework/metadata';
import { isRouterClass, type Controller } from '../../framework/router';
import { TestClient } from '../../framework/testing';
import { blueprintsDir } from '../paths';
import { file, multipart as multipartBody } from '../../framework/tests/fixtures/uploads/multipart';

/** The sample project as stored in `blueprints/project` (its `.ts` files need no rendering). */
export const sampleDir = join(blueprintsDir, 'project');

/** The exported classes of every `.ts` file in a folder of the sample, by export name. */
export function exportsOf(folder: string): Record<string, unknown> {
  const found: Record<string, unknown> = {};
  for (const file of readdirSync(join(sampleDir, folder)).filter((f) => f.endsWith('.ts')).sort()) {
    Object.assign(found, require(join(sampleDir, folder, file)));
  }
  return found;
}

/** Every router class the sample's `routers/` exports, by class name. */
export function sampleRouters(): Map<string, Class<Controller>> {
  const routers = new Map<string, Class<Controller>>();
  for (const value of Object.values(exportsOf('routers'))) {
    if (isRouterClass(value)) routers.set(value.name, value as Class<Controller>);
  }
  return routers;
}

export const ADMIN_TOKEN = 'test-admin-token';

/**
 * The sample app put together by hand as `trellis run` would: services and config provided, the global
 * `timing` middleware, templates, and every router.
 */
export function sampleApp(): BaseRouter {
  const services = Object.values(exportsOf('services')).filter((v): v is Class => typeof v === 'function' && /^class\b/.test(String(v)));
  const { Timing } = exportsOf('middleware') as { Timing: Class };
  const app = new BaseRouter({ title: 'Demo API', logger: createLogger({ level: 'silent' }) });
  app.provide(new Config({ app: { title: 'Demo API', description: 'A demo.' }, docs: { path: '/docs' }, admin: { token: ADMIN_TOKEN } }));
  app.provide(...services);
  app.templates(join(sampleDir, 'templates'));
  app.addMiddleware(Timing as never);
  for (const router of sampleRouters().values()) app.includeRouter(router);
  return app;
}

export function sampleClient(): TestClient {
  return new TestClient(sampleApp());
}

/** A multipart/form-data body with one file part (and the headers to send it with). */
export function multipart(field: string, filename: string, content: Buffer): { body: Buffer; headers: Record<string, string> } {
  return multipartBody([file(field, filename, content)]);
}
