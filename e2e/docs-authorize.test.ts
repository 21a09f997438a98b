import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { BaseRouter, Get, JSONResponse, Middleware, router, serverUrl, Use, type CallNext, type Request } from '../framework/index';
import { bearerAuth } from '../framework/security';
import type { Server } from 'node:http';
import { launchChromium } from './support/chromium';
import { execute as executeOperation } from './support/swagger-ui';

const TOKEN = 'e2e-admin-token';

/** The sample's guard: declares the bearer scheme it enforces, so the docs get an Authorize button. */
class RequireToken extends Middleware {
  static readonly security = bearerAuth();
  dispatch(request: Request, callNext: CallNext) {
    if (request.headers.authorization === `Bearer ${TOKEN}`) return callNext(request);
    return new JSONResponse({ error: 'Missing or wrong token' }, { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } });
  }
}

/** Admin endpoints. */
@Use(RequireToken)
class AdminRouter extends router('/admin') {
  /** Counts. */
  @Get('/stats') stats() {
    return { tasks: 3 };
  }
}

describe('Swagger UI\'s Authorize in a real browser', () => {
  let server: Server;
  let origin: string;
  let browser: Browser;

  before(async () => {
    server = await new BaseRouter({ title: 'Admin API' }).includeRouter(AdminRouter).listen({ port: 0, host: '127.0.0.1' });
    origin = serverUrl(server);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** "Execute" on the opened stats operation: see support/swagger-ui.ts. */
  const execute = (page: Page) => executeOperation(page, 'operations-Admin-AdminRouter_stats', `${origin}/admin/stats`);

  it('"Try it out" on an admin route answers 401 without the token and 200 once authorized', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    assert.equal((await page.goto(`${origin}/docs/swagger`))?.status(), 200);
    const operation = page.locator('#operations-Admin-AdminRouter_stats');
    await operation.locator('.opblock-summary-control').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();

    const refused = await execute(page);
    assert.deepEqual(refused, { status: '401', body: { error: 'Missing or wrong token' }, authorization: undefined });

    await page.locator('.scheme-container .btn.authorize').click();
    const dialog = page.locator('.modal-ux');
    await dialog.getByText('bearerAuth (http, Bearer)').waitFor();
    await dialog.locator('input').fill(TOKEN);
    await dialog.getByRole('button', { name: 'Apply credentials' }).click();
    await dialog.getByRole('button', { name: 'Close' }).click();

    const allowed = await execute(page);
    assert.deepEqual(allowed, { status: '200', body: { tasks: 3 }, authorization: `Bearer ${TOKEN}` });
    await page.close();
  });
});
