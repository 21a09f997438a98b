import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { IsInt, IsString } from 'class-validator';
import { BaseRouter, Delete, Get, HTMLResponse, JSONResponse, Post, RedirectResponse, router, TemplateResponse } from '../index';
import { render } from '../templates/template-response';
import { Body, Header, Int, Path, Query } from '../param';

class TaskOut {
  @IsInt() id!: number;
  @IsString() title!: string;
}

class TaskIn {
  @IsString() title!: string;
}

class ErrorOut {
  @IsString() error!: string;
}

/** An output model without class-validator rules. */
class Stats {
  count = 0;
}

class TaskRouter extends router('/tasks') {
  @Get('/', { response: [TaskOut] }) list() { return []; }
  @Get('/{task_id}', { response: TaskOut, responses: { 404: ErrorOut, 410: 'Task archived', 303: 'See the archive' } })
  one(@Path('task_id', { type: Int }) id: number) { return { id }; }
  @Post('/', { status: 201 }) create(@Body() body: TaskIn): TaskOut { return { id: 1, title: body.title }; }
  @Get('/count') count(): number { return 0; }
  @Get('/stats') stats(): Stats { return new Stats(); }
  @Get('/latest') async latest(): Promise<TaskOut> { return { id: 1, title: 'x' }; }
  @Delete('/{task_id}', { status: 204 }) remove(@Path('task_id', { type: Int }) id: number) { void id; }
  @Get('/search') search(@Query('q') q: string) { return q; }
  @Get('/mine') mine(@Header('X-User') user: string) { return user; }
  @Get('/custom') custom(): JSONResponse { return new JSONResponse({}); }
}

class Pages extends router('/pages') {
  @Get('/home') home(): HTMLResponse { return new HTMLResponse('<h1>Home</h1>'); }
  @Get('/about') about(): TemplateResponse { return render('about.html'); }
  @Get('/old') old(): RedirectResponse { return new RedirectResponse('/pages/home'); }
  @Get('/moved', { status: 301 }) moved(): RedirectResponse { return new RedirectResponse('/pages/home', { status: 301 }); }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const document = (): any => new BaseRouter().includeRouter(new TaskRouter()).includeRouter(new Pages()).openapi();
const json = (schema: unknown) => ({ 'application/json': { schema } });
const VALIDATION_ERROR = { description: 'Validation Error', content: json({ $ref: '#/components/schemas/HTTPValidationError' }) };

describe('OpenAPI responses', () => {
  it('are valid OpenAPI', async () => {
    await SwaggerParser.validate(structuredClone(document()));
  });

  it('document the declared response model, a list model, and other declared statuses', () => {
    const { paths } = document();
    assert.deepEqual(paths['/tasks'].get.responses, {
      200: { description: 'Successful Response', content: json({ type: 'array', items: { $ref: '#/components/schemas/TaskOut' } }) },
    });
    assert.deepEqual(paths['/tasks/{task_id}'].get.responses, {
      200: { description: 'Successful Response', content: json({ $ref: '#/components/schemas/TaskOut' }) },
      303: { description: 'See the archive' },
      404: { description: 'Not Found', content: json({ $ref: '#/components/schemas/ErrorOut' }) },
      410: { description: 'Task archived', content: json({ $ref: '#/components/schemas/HTTPError' }) },
      422: VALIDATION_ERROR,
    });
    assert.deepEqual(document().components.schemas.HTTPError, {
      type: 'object', properties: { error: { type: 'string' } }, required: ['error'],
    });
  });

  it('use the declared return type when it is a class, with the route status', () => {
    const { paths, components } = document();
    assert.deepEqual(paths['/tasks'].post.responses['201'], {
      description: 'Successful Response', content: json({ $ref: '#/components/schemas/TaskOut' }),
    });
    assert.deepEqual(paths['/tasks/count'].get.responses['200'].content, json({ type: 'number' }));
    assert.deepEqual(paths['/tasks/stats'].get.responses['200'].content, json({ $ref: '#/components/schemas/Stats' }));
    // The class's properties come from its declaration in this file (it has no class-validator rules).
    assert.deepEqual(components.schemas.Stats, { type: 'object', properties: { count: { type: 'number' } }, required: ['count'] });
    // `Promise<TaskOut>` is only `Promise` at run time; the source says what it resolves to.
    assert.deepEqual(paths['/tasks/latest'].get.responses['200'].content, json({ $ref: '#/components/schemas/TaskOut' }));
    assert.deepEqual(paths['/tasks/custom'].get.responses['200'].content, { '*/*': { schema: {} } });
  });

  it('document a 204 without content', () => {
    assert.deepEqual(document().paths['/tasks/{task_id}'].delete.responses['204'], { description: 'Successful Response' });
  });

  it('add a 422 with the validation envelope to every operation that takes input, and only those', () => {
    const { paths, components } = document();
    for (const [path, method] of [['/tasks/{task_id}', 'get'], ['/tasks', 'post'], ['/tasks/{task_id}', 'delete'], ['/tasks/search', 'get'], ['/tasks/mine', 'get']]) {
      assert.deepEqual(paths[path][method].responses['422'], VALIDATION_ERROR, `${method} ${path}`);
    }
    for (const [path, method] of [['/tasks', 'get'], ['/tasks/count', 'get'], ['/pages/home', 'get']]) {
      assert.equal(paths[path][method].responses['422'], undefined, `${method} ${path}`);
    }
    assert.deepEqual(components.schemas.HTTPValidationError, {
      type: 'object',
      properties: {
        error: { type: 'string', const: 'Validation failed' },
        details: { type: 'array', items: { $ref: '#/components/schemas/ValidationDetail' } },
      },
      required: ['error', 'details'],
    });
    assert.deepEqual(components.schemas.ValidationDetail, {
      type: 'object',
      properties: {
        location: { type: 'string', enum: ['path', 'query', 'header', 'body'] },
        field: { type: 'string' },
        message: { type: 'string' },
      },
      required: ['location', 'field', 'message'],
    });
  });

  it('document HTMLResponse as text/html and RedirectResponse as a 3xx with Location', () => {
    const { paths } = document();
    assert.deepEqual(paths['/pages/home'].get.responses, {
      200: { description: 'Successful Response', content: { 'text/html': { schema: { type: 'string' } } } },
    });
    assert.deepEqual(paths['/pages/about'].get.responses['200'].content, { 'text/html': { schema: { type: 'string' } } });
    const location = { Location: { description: 'Where to go', schema: { type: 'string', format: 'uri-reference' } } };
    assert.deepEqual(paths['/pages/old'].get.responses, { 307: { description: 'Redirect', headers: location } });
    assert.deepEqual(paths['/pages/moved'].get.responses, { 301: { description: 'Redirect', headers: location } });
  });
});
