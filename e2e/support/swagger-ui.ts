import type { Page } from 'playwright-core';

/** What Swagger UI showed for one "Execute": the status and body in its live response, and the Authorization header sent. */
export interface Executed {
  status: string;
  body: unknown;
  authorization: string | undefined;
}

/**
 * Clicks "Execute" on the opened operation `operationId` (Swagger UI's element id, `operations-Admin-AdminRouter_stats`)
 * whose request goes to `url`, waits for the request and its answer, reads what the page shows, then clears it.
 *
 * @example
 * ```ts
 * const { status, authorization } = await execute(page, 'operations-Admin-AdminRouter_stats', `${origin}/admin/stats`);
 * ```
 */
export async function execute(page: Page, operationId: string, url: string): Promise<Executed> {
  const operation = page.locator(`#${operationId}`);
  const sent = page.waitForRequest((request) => request.url() === url);
  const answered = page.waitForResponse((response) => response.url() === url);
  await operation.getByRole('button', { name: 'Execute' }).click();
  const [request] = await Promise.all([sent, answered]);
  const live = operation.locator('.live-responses-table tbody');
  await live.locator('.response-col_status').waitFor();
  const status = (await live.locator('.response-col_status').textContent())?.trim() ?? '';
  const body = JSON.parse((await live.locator('.response-col_description .highlight-code pre').textContent()) ?? '');
  await operation.getByRole('button', { name: 'Clear' }).click();
  return { status, body, authorization: (await request.allHeaders()).authorization };
}
