import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { BaseRouter, Get, router, serverUrl, Use } from '../framework/index';
import { jwtAuth, Scopes, signToken } from '../framework/auth';
import { launchChromium } from './support/chromium';
import { execute as executeOperation } from './support/swagger-ui';

const SECRET = 'e2e-secret-of-at-least-thirty-two-bytes';

/** Admin endpoints. */
@Use(jwtAuth({ secret: SECRET }))
class AdminRouter extends router('/admin') {
  /** Counts. */
  @Get('/stats') @Scopes('admin:read') stats() {
    return { tasks: 3 };
  }
}

describe("Swagger UI's Authorize with a JWT and scopes, in a real browser", () => {
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

  /** Authorize (after logging out of a token given before) with `token`. */
  async function authorize(page: Page, token: string): Promise<void> {
    await page.locator('.scheme-container .btn.authorize').click();
    const dialog = page.locator('.modal-ux');
    await dialog.getByText('bearerAuth (http, Bearer)').waitFor();
    // Authorized already: the dialog shows Logout (labelled "Remove authorization") instead of the input.
    const logout = dialog.getByRole('button', { name: 'Remove authorization' });
    const input = dialog.locator('input');
    await logout.or(input).first().waitFor();
    if (await logout.isVisible()) await logout.click();
    await dialog.locator('input').fill(token);
    await dialog.getByRole('button', { name: 'Apply credentials' }).click();
    await dialog.getByRole('button', { name: 'Close' }).click();
  }

  it('"Try it out" on a scoped route: 401 without a token, 403 without the scope, 200 with it', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    assert.equal((await page.goto(`${origin}/docs/swagger`))?.status(), 200);
    const operation = page.locator('#operations-Admin-AdminRouter_stats');
    await operation.locator('.opblock-summary-control').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();

    const missing = await execute(page);
    assert.deepEqual(missing, { status: '401', body: { error: 'Missing bearer token: send Authorization: Bearer <token>' }, authorization: undefined });

    const reader = await signToken({ secret: SECRET, scopes: ['tasks:read'] });
    await authorize(page, reader);
    const forbidden = await execute(page);
    assert.deepEqual(forbidden, { status: '403', body: { error: 'The token lacks a scope this route needs' }, authorization: `Bearer ${reader}` });

    const admin = await signToken({ secret: SECRET, scopes: ['admin:read'] });
    await authorize(page, admin);
    const allowed = await execute(page);
    assert.deepEqual(allowed, { status: '200', body: { tasks: 3 }, authorization: `Bearer ${admin}` });
    await page.close();
  });
});
