import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Type } from 'class-transformer';
import { IsEmail, IsInt, IsOptional, IsPositive, IsString, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { BaseRouter, Delete, Get, HTMLResponse, Patch, Post, RedirectResponse, router } from '../index';
import { TrellisError } from '../framework-error';
import { Body, Header, Int, Path, Query, UploadedFile } from '../param';

class Label {
  @IsString() @MinLength(1) name!: string;
}

class TaskIn {
  @IsString() @MinLength(1) @MaxLength(100) title!: string;
  @IsInt() @Min(1) @Max(5) priority!: number;
  @IsPositive() estimate!: number;
  @IsOptional() @IsEmail() owner?: string;
  @ValidateNested({ each: true }) @Type(() => Label) labels!: Label[];
}

class TaskOut {
  @IsInt() id!: number;
  @IsString() title!: string;
}

class ErrorOut {
  @IsString() error!: string;
}

/** Never used by a route: must not appear in the document. */
class UnusedDto {
  @IsString() secret!: string;
}
void UnusedDto;

/** Tasks of the team. */
class TaskRouter extends router('/tasks') {
  /** List tasks. */
  @Get('/') list(@Query('page', { type: Int, default: 1 }) page: number, @Query('tag', { type: ['string'], default: [] }) tags: string[]) {
    return [page, tags];
  }
  @Get('/{task_id}', { response: TaskOut, responses: { 404: ErrorOut } }) one(@Path('task_id', { type: Int }) id: number) { return { id }; }
  @Post('/', { status: 201 }) create(@Body() body: TaskIn): TaskOut { return { id: 1, title: body.title }; }
  @Post('/batch') createMany(@Body({ type: TaskIn }) items: TaskIn[]) { return items.length; }
  @Patch('/{task_id}/done') done(@Path('task_id', { type: Int }) id: number, @Header('X-Request-Source', { default: 'ui' }) source: string) {
    return { id, source };
  }
  @Delete('/{task_id}', { status: 204 }) remove(@Path('task_id', { type: Int }) id: number) { void id; }
  @Post('/{task_id}/attachment') attach(@Path('task_id', { type: Int }) id: number, @UploadedFile('file') file: UploadedFile | undefined) {
    return { id, size: file?.size };
  }
}

class PageRouter extends router('') {
  @Get('/') home(): HTMLResponse { return new HTMLResponse('<h1>Home</h1>'); }
  @Get('/old') old(): RedirectResponse { return new RedirectResponse('/'); }
}

function tasksApp(): BaseRouter {
  return new BaseRouter({ title: 'Tasks API', version: '2.1.0', description: 'Team tasks.' })
    .includeRouter(new TaskRouter())
    .includeRouter(new PageRouter());
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const documentOf = (app: BaseRouter): any => app.openapi();

describe('OpenAPI document', () => {
  it('passes @apidevtools/swagger-parser validation', async () => {
    const document = documentOf(tasksApp());
    await SwaggerParser.validate(structuredClone(document));
    assert.equal(document.openapi, '3.1.0');
  });

  it('is rejected by the validator when a $ref dangles (the check above can fail)', async () => {
    const document = structuredClone(documentOf(tasksApp()));
    delete document.components.schemas.TaskOut;
    await assert.rejects(SwaggerParser.validate(document));
  });

  it('takes info.title, version and description from the app', () => {
    assert.deepEqual(documentOf(tasksApp()).info, { title: 'Tasks API', version: '2.1.0', description: 'Team tasks.' });
    assert.deepEqual(documentOf(new BaseRouter()).info, { title: 'trellis API', version: '0.1.0' });
  });

  it('lists each route once, in {name} form, without trailing-slash artifacts', () => {
    const { paths } = documentOf(tasksApp());
    assert.deepEqual(Object.keys(paths), [
      '/tasks',
      '/tasks/{task_id}',
      '/tasks/batch',
      '/tasks/{task_id}/done',
      '/tasks/{task_id}/attachment',
      '/',
      '/old',
    ]);
    assert.deepEqual(Object.keys(paths['/tasks']), ['get', 'post']);
    assert.deepEqual(Object.keys(paths['/tasks/{task_id}']), ['get', 'delete']);
  });

  it('gives every operation a unique operationId and one tag per router, described by its JSDoc', () => {
    const document = documentOf(tasksApp());
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item as object));
    const ids = operations.map((operation) => operation.operationId);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(document.paths['/tasks'].get.operationId, 'TaskRouter_list');
    assert.deepEqual(document.paths['/tasks'].get.tags, ['Task']);
    assert.deepEqual(document.paths['/'].get.tags, ['Page']);
    assert.deepEqual(document.tags, [{ name: 'Task', description: 'Tasks of the team.' }, { name: 'Page' }]);
  });

  it('types path parameters, required and without a pattern', () => {
    class Things extends router('/things/{group}') {
      @Get('/{id}') one(@Path('id', { type: Int }) id: number, @Path('group') group: string) { return { id, group }; }
      @Get('/{id}/price/{amount}') price(@Path('amount') amount: number, @Path('id') id: boolean) { return { amount, id }; }
    }
    const { paths } = documentOf(new BaseRouter().includeRouter(new Things()));
    assert.deepEqual(paths['/things/{group}/{id}'].get.parameters, [
      { name: 'group', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
    ]);
    // `group` is not bound by the handler but is part of the path: documented as a string.
    assert.deepEqual(paths['/things/{group}/{id}/price/{amount}'].get.parameters, [
      { name: 'group', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'id', in: 'path', required: true, schema: { type: 'boolean' } },
      { name: 'amount', in: 'path', required: true, schema: { type: 'number' } },
    ]);
  });

  it('types query parameters with required and default', () => {
    class Search extends router('/search') {
      @Get() find(
        @Query('q') q: string,
        @Query('page', { type: Int, default: 1 }) page: number,
        @Query('ratio', { default: 0.5 }) ratio: number,
        @Query('exact', { default: false }) exact: boolean,
        @Query('category', { default: null, description: 'Only this category' }) category: string | null,
        @Query('tag', { type: ['string'] }) tags: string[],
        @Query('id', { type: [Int], default: [1, 2] }) ids: number[],
      ) { return { q, page, ratio, exact, category, tags, ids }; }
    }
    const { paths } = documentOf(new BaseRouter().includeRouter(new Search()));
    assert.deepEqual(paths['/search'].get.parameters, [
      { name: 'q', in: 'query', required: true, schema: { type: 'string' } },
      { name: 'page', in: 'query', required: false, schema: { type: 'integer', default: 1 } },
      { name: 'ratio', in: 'query', required: false, schema: { type: 'number', default: 0.5 } },
      { name: 'exact', in: 'query', required: false, schema: { type: 'boolean', default: false } },
      { name: 'category', in: 'query', required: false, description: 'Only this category', schema: { type: 'string' } },
      { name: 'tag', in: 'query', required: true, schema: { type: 'array', items: { type: 'string' } } },
      { name: 'id', in: 'query', required: false, schema: { type: 'array', items: { type: 'integer' }, default: [1, 2] } },
    ]);
  });

  it('documents header parameters under their names as written', () => {
    class Me extends router('/me') {
      @Get() me(@Header('X-API-Key') key: string, @Header('x-trace-id', { default: null }) trace: string | null) { return { key, trace }; }
    }
    const { paths } = documentOf(new BaseRouter().includeRouter(new Me()));
    assert.deepEqual(paths['/me'].get.parameters, [
      { name: 'X-API-Key', in: 'header', required: true, schema: { type: 'string' } },
      { name: 'x-trace-id', in: 'header', required: false, schema: { type: 'string' } },
    ]);
  });

  it('holds only the schemas the routes use', () => {
    const schemas = documentOf(tasksApp()).components.schemas;
    // HTTPError: the 400/413/415 that reading a JSON body or an upload answers.
    assert.deepEqual(Object.keys(schemas), ['ErrorOut', 'HTTPError', 'HTTPValidationError', 'Label', 'TaskIn', 'TaskOut', 'ValidationDetail']);
    class Plain extends router('/plain') {
      @Get() ping() { return 'pong'; }
    }
    assert.equal(documentOf(new BaseRouter().includeRouter(new Plain())).components, undefined);
  });

  it('is built once and rebuilt after another router is included', () => {
    const app = tasksApp();
    const first = app.openapi();
    assert.equal(app.openapi(), first);
    class Extra extends router('/extra') {
      @Get() extra() { return {}; }
    }
    app.includeRouter(new Extra());
    const second = app.openapi();
    assert.notEqual(second, first);
    assert.ok(second.paths['/extra']);
  });

  it('refuses two different classes with one schema name', () => {
    const makeDto = () => {
      class Item {
        @IsString() name!: string;
      }
      return Item;
    };
    const [A, B] = [makeDto(), makeDto()];
    class Items extends router('/items') {
      @Post('/a') a(@Body({ type: A }) body: InstanceType<typeof A>[]) { return body; }
      @Post('/b') b(@Body({ type: B }) body: InstanceType<typeof B>[]) { return body; }
    }
    const app = new BaseRouter().includeRouter(new Items());
    assert.throws(() => app.openapi(), (e: TrellisError) => e.code === 'TRELLIS_ERR_SCHEMA_NAME_CLASH' && /Item/.test(e.message));
  });
});
