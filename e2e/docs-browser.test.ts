import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { IsBoolean, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import type { Browser, Page } from 'playwright-core';
import { BaseRouter, Delete, Get, HTTPException, Post, router, serverUrl } from '../framework/index';
import type { Server } from 'node:http';
import { Body, Int, Path, Query, UploadedFile } from '../framework/param';
import { launchChromium } from './support/chromium';

class TaskIn {
  @IsString() @MinLength(1) @MaxLength(200) title!: string;
  @IsOptional() @IsBoolean() done?: boolean;
}

class TaskOut {
  @IsString() title!: string;
  @IsBoolean() done!: boolean;
}

/** Tasks of the team. */
class TaskRouter extends router('/tasks') {
  readonly #tasks = new Map([[1, { id: 1, title: 'Write the docs e2e test', done: false }]]);

  /** List tasks, optionally only done or open ones. */
  @Get() list(@Query('done', { type: 'boolean', default: null }) done: boolean | null) {
    return [...this.#tasks.values()].filter((task) => done === null || task.done === done);
  }

  /** One task by id. */
  @Get('/{task_id}', { response: TaskOut, responses: { 404: 'Task not found' } })
  one(@Path('task_id', { type: Int }) id: number) {
    const task = this.#tasks.get(id);
    if (!task) throw new HTTPException(404, 'Task not found');
    return task;
  }

  /** Create a task. */
  @Post('/', { status: 201, response: TaskOut }) create(@Body() body: TaskIn) {
    const task = { id: this.#tasks.size + 1, title: body.title, done: body.done ?? false };
    this.#tasks.set(task.id, task);
    return task;
  }

  /** Attach a file to a task. */
  @Post('/{task_id}/attachment') attach(
    @Path('task_id', { type: Int }) id: number,
    @UploadedFile('file') file: UploadedFile | undefined,
  ) {
    return { task_id: id, filename: file?.filename ?? null, size: file?.size ?? null };
  }

  /** Delete a task. */
  @Delete('/{task_id}') remove(@Path('task_id', { type: Int }) id: number) {
    this.#tasks.delete(id);
  }
}

interface DocumentShape {
  paths: Record<string, Record<string, { operationId: string }>>;
}

describe('docs pages in a real browser', () => {
  let server: Server;
  let origin: string;
  let browser: Browser;
  let expected: string[];

  before(async () => {
    const app = new BaseRouter({ title: 'Tasks API', version: '1.2.3' }).includeRouter(new TaskRouter());
    server = await app.listen({ port: 0, host: '127.0.0.1' });
    origin = serverUrl(server);
    const document = (await (await fetch(`${origin}/docs/openapi.json`)).json()) as DocumentShape;
    expected = Object.entries(document.paths)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    assert.equal(expected.length, 5);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** Opens a page, recording every URL it requests. */
  async function open(path: string): Promise<{ page: Page; requests: string[] }> {
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const response = await page.goto(`${origin}${path}`);
    assert.equal(response?.status(), 200);
    return { page, requests };
  }

  function assertSameOrigin(requests: string[]): void {
    assert.ok(requests.length > 2, 'the page loaded its assets');
    const outside = requests.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin);
    assert.deepEqual(outside, [], 'every request goes to the app');
  }

  it('Swagger UI renders one operation per operation of openapi.json, from assets the app serves', async () => {
    const { page, requests } = await open('/docs/swagger');
    await page.waitForSelector('.opblock');
    const rendered = await page.locator('.opblock').evaluateAll((blocks) =>
      blocks.map((block) => {
        const method = block.querySelector('.opblock-summary-method')?.textContent ?? '';
        return `${method} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`;
      }),
    );
    assert.deepEqual(rendered.sort(), expected);
    assert.equal(await page.title(), 'Tasks API - Swagger UI');
    await page.screenshot({ path: '/tmp/trellis-docs-swagger.png', fullPage: true });
    assertSameOrigin(requests);
    await page.close();
  });

  it('"Try it out" then "Execute" on GET /tasks shows the live response', async () => {
    const created = await fetch(`${origin}/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Added just now', done: true }),
    });
    assert.equal(created.status, 201);
    const { page, requests } = await open('/docs/swagger');
    const operation = page.locator('#operations-Task-TaskRouter_list');
    await operation.locator('.opblock-summary-control').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    const live = operation.locator('.live-responses-table tbody');
    await live.locator('.response-col_status').waitFor();
    assert.equal((await live.locator('.response-col_status').textContent())?.trim(), '200');
    const body = await live.locator('.response-col_description .highlight-code pre').textContent();
    assert.deepEqual(JSON.parse(body ?? ''), [
      { id: 1, title: 'Write the docs e2e test', done: false },
      { id: 2, title: 'Added just now', done: true },
    ]);
    assert.ok(requests.includes(`${origin}/tasks`), 'the browser called the API');
    assertSameOrigin(requests);
    await page.close();
  });

  it('"Try it out" uploads a file to a multipart operation', async () => {
    const { page, requests } = await open('/docs/swagger');
    const operation = page.locator('#operations-Task-TaskRouter_attach');
    await operation.locator('.opblock-summary-control').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.locator('input[placeholder="task_id"]').fill('1');
    await operation.locator('input[type=file]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await operation.getByRole('button', { name: 'Execute' }).click();
    const live = operation.locator('.live-responses-table tbody');
    await live.locator('.response-col_status').waitFor();
    const body = await live.locator('.response-col_description .highlight-code pre').textContent();
    assert.deepEqual(JSON.parse(body ?? ''), { task_id: 1, filename: 'notes.txt', size: 5 });
    assertSameOrigin(requests);
    await page.close();
  });

  it('ReDoc renders one operation per operation of openapi.json, from assets the app serves', async () => {
    const { page, requests } = await open('/docs/redoc');
    await page.waitForSelector('[data-section-id^="operation/"]');
    const rendered = await page.locator('[data-section-id^="operation/"]').evaluateAll((sections) =>
      sections.map((section) => {
        const verb = section.querySelector('.http-verb');
        return `${verb?.textContent?.toUpperCase()} ${verb?.nextElementSibling?.textContent}`;
      }),
    );
    assert.deepEqual(rendered.sort(), expected);
    assert.equal(await page.title(), 'Tasks API - ReDoc');
    await page.screenshot({ path: '/tmp/trellis-docs-redoc.png' });
    assertSameOrigin(requests);
    await page.close();
  });
});

describe('docs pages of a trellis app mounted in Express, in a real browser', () => {
  let server: import('node:http').Server;
  let origin: string;
  let browser: Browser;

  before(async () => {
    const { default: express } = await import('express');
    const outer = express();
    outer.use('/api', new BaseRouter({ title: 'Mounted API' }).includeRouter(new TaskRouter()).handler);
    server = outer.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('"Try it out" on GET /tasks under /api calls /api/tasks, with every asset loaded from under /api', async () => {
    const page = await browser.newPage();
    const requests: Array<[string, number]> = [];
    page.on('response', (response) => requests.push([response.url(), response.status()]));
    assert.equal((await page.goto(`${origin}/api/docs/swagger`))?.status(), 200);
    const operation = page.locator('#operations-Task-TaskRouter_list');
    await operation.locator('.opblock-summary-control').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    const live = operation.locator('.live-responses-table tbody');
    await live.locator('.response-col_status').waitFor();
    assert.equal((await live.locator('.response-col_status').textContent())?.trim(), '200');
    const body = await live.locator('.response-col_description .highlight-code pre').textContent();
    assert.equal(JSON.parse(body ?? '')[0].title, 'Write the docs e2e test');
    const paths = requests.filter(([url]) => !url.startsWith('data:')).map(([url, status]) => `${new URL(url).pathname} ${status}`);
    assert.ok(paths.includes('/api/tasks 200'), paths.join('\n'));
    assert.deepEqual(paths.filter((line) => !line.startsWith('/api/')), [], 'everything under the mount path');
    assert.deepEqual(paths.filter((line) => !line.endsWith(' 200')), [], 'every request answered 200');
    await page.close();
  });
});
