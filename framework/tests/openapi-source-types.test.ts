import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { IsInt, IsString, MinLength } from 'class-validator';
import { BaseRouter, Delete, Get, HTMLResponse, HTTPException, Post, Put, RedirectResponse, router } from '../index';
import { TrellisError } from '../framework-error';
import { Body, Int, Path, Query, UploadedFile } from '../param';
import { buildOpenAPI } from '../openapi';
import type { MethodTypes, TypeTable } from '../source/types/table';

// Tables written by hand, as the source reader would give them for this file: the document's half of
// "return types become response schemas" and "every status the code can answer", without the reader.

class TaskIn {
  @IsString() @MinLength(1) title!: string;
}

/** A DTO class read both ways: class-validator rules (as a body) and its TypeScript declaration (as a return type). */
class TaskOut {
  @IsInt() id!: number;
  @IsString() title!: string;
  done = false;
}

class NotFoundError extends Error {}

class TaskRouter extends router('/tasks') {
  @Get('/') list() { return []; }
  @Get('/{task_id}') one(@Path('task_id', { type: Int }) id: number) {
    if (id > 1) throw new HTTPException(404, 'Task not found');
    return { id, title: 'x' };
  }
  @Post('/') create(@Body() body: TaskIn) { return [{ id: 1, title: body.title }, 201]; }
  @Put('/{task_id}') replace(@Path('task_id', { type: Int }) id: number, @Body() body: TaskIn): TaskOut {
    return { id, title: body.title, done: false };
  }
  @Delete('/{task_id}') remove(@Path('task_id', { type: Int }) id: number) { void id; }
  @Get('/latest', { response: TaskIn }) latest() { return { title: 'x' }; }
  @Get('/lookup') lookup(@Query('q') q: string) {
    if (!q) throw new NotFoundError();
    return q;
  }
  @Get('/summary') summary() { return { count: 0 }; }
}

class PageRouter extends router('') {
  @Get('/') home() { return new HTMLResponse('<h1>Home</h1>'); }
  @Get('/home') old() { return new RedirectResponse('/'); }
  @Get('/export') exported() { return new HTMLResponse(''); }
  @Get('/feed') feed() { return new HTMLResponse(''); }
  @Post('/upload') upload(@UploadedFile('file') file: UploadedFile | undefined) { return { size: file?.size ?? 0 }; }
}

const TASK = { $ref: '#/components/schemas/Task' };

const TABLE: TypeTable = {
  files: {
    [__filename]: {
      'TaskRouter.list': { returns: { kind: 'json', schema: { type: 'array', items: TASK } } },
      'TaskRouter.one': { returns: { kind: 'json', schema: TASK }, statuses: [{ status: 404, message: 'Task not found' }] },
      'TaskRouter.create': { returns: { kind: 'json', schema: TASK, status: 201 } },
      'TaskRouter.replace': { returns: { kind: 'json', schema: { $ref: '#/components/schemas/TaskOut' } } },
      'TaskRouter.remove': { returns: { kind: 'empty' } },
      'TaskRouter.latest': { returns: { kind: 'json', schema: TASK } },
      'TaskRouter.lookup': { returns: { kind: 'json', schema: { type: 'string' } }, throws: ['NotFoundError', 'Unmapped'] },
      'TaskRouter.summary': {
        returns: { kind: 'json', schema: { type: 'object', properties: { count: { type: 'number' } }, required: ['count'] } },
        statuses: [{ status: 503, schema: { type: 'object', properties: { retry: { type: 'number' } } } }, { status: 404 }],
      },
      'PageRouter.home': { returns: { kind: 'html' } },
      'PageRouter.old': { returns: { kind: 'redirect' } },
      'PageRouter.exported': { returns: { kind: 'file' } },
      'PageRouter.feed': { returns: { kind: 'events' } },
      'PageRouter.upload': { returns: { kind: 'json', schema: { type: 'object', properties: { size: { type: 'number' } } } } },
    },
  },
  schemas: {
    Task: {
      type: 'object',
      properties: { id: { type: 'number' }, title: { type: 'string' }, owner: { $ref: '#/components/schemas/User' } },
      required: ['id', 'title'],
    },
    User: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    TaskOut: {
      type: 'object',
      properties: { id: { type: 'number' }, title: { type: 'string' }, done: { type: 'boolean' } },
      required: ['id', 'title', 'done'],
    },
    Unused: { type: 'object' },
  },
};

const app = (sourceTypes: TypeTable | false = TABLE) => new BaseRouter({ sourceTypes }).includeRouter(new TaskRouter()).includeRouter(new PageRouter());
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const document = (sourceTypes?: TypeTable | false): any => app(sourceTypes).openapi();
const json = (schema: unknown) => ({ 'application/json': { schema } });
const HTTP_ERROR = { $ref: '#/components/schemas/HTTPError' };
const VALIDATION_ERROR = { description: 'Validation Error', content: json({ $ref: '#/components/schemas/HTTPValidationError' }) };
const BODY_ERRORS = {
  400: { description: 'Malformed JSON body (or nested deeper than 64 levels, or with "__proto__" keys)', content: json(HTTP_ERROR) },
  413: { description: 'Body too large (over the body limit, or too many keys, objects and arrays, or items)', content: json(HTTP_ERROR) },
  415: { description: 'Content-Type is not application/json in UTF-8, or the Content-Encoding is not supported', content: json(HTTP_ERROR) },
};

describe('OpenAPI from the source types table', () => {
  it('is valid OpenAPI 3.1', async () => {
    await SwaggerParser.validate(structuredClone(document()));
  });

  it('documents a JSON return type by $ref, its named types (and theirs) as components, and only those used', () => {
    const { paths, components } = document();
    assert.deepEqual(paths['/tasks/{task_id}'].get.responses['200'], { description: 'Successful Response', content: json(TASK) });
    assert.deepEqual(components.schemas.Task, TABLE.schemas.Task);
    assert.deepEqual(components.schemas.User, TABLE.schemas.User);
    assert.equal(components.schemas.Unused, undefined);
  });

  it('documents an array return type', () => {
    assert.deepEqual(document().paths['/tasks'].get.responses, {
      200: { description: 'Successful Response', content: json({ type: 'array', items: TASK }) },
    });
  });

  it('documents a tuple [body, 201] with its status', () => {
    assert.deepEqual(document().paths['/tasks'].post.responses, {
      201: { description: 'Successful Response', content: json(TASK) },
      ...BODY_ERRORS,
      422: VALIDATION_ERROR,
    });
  });

  it('documents void as a 204 without content', () => {
    assert.deepEqual(document().paths['/tasks/{task_id}'].delete.responses, {
      204: { description: 'Successful Response' },
      422: VALIDATION_ERROR,
    });
  });

  it('documents html as text/html, redirect as 307 with Location, a file as binary, events as text/event-stream', () => {
    const { paths } = document();
    assert.deepEqual(paths['/'].get.responses, { 200: { description: 'Successful Response', content: { 'text/html': { schema: { type: 'string' } } } } });
    assert.deepEqual(paths['/home'].get.responses, {
      307: { description: 'Redirect', headers: { Location: { description: 'Where to go', schema: { type: 'string', format: 'uri-reference' } } } },
    });
    assert.deepEqual(paths['/export'].get.responses['200'].content, { '*/*': { schema: { type: 'string', format: 'binary' } } });
    assert.deepEqual(paths['/feed'].get.responses['200'].content, { 'text/event-stream': { schema: { type: 'string' } } });
  });

  it('documents a thrown HTTPException with the {error} body, described by its message', () => {
    const { paths, components } = document();
    assert.deepEqual(paths['/tasks/{task_id}'].get.responses['404'], { description: 'Task not found', content: json(HTTP_ERROR) });
    assert.deepEqual(components.schemas.HTTPError, { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] });
  });

  it('documents a status without a message by its status text, and a returned body by its schema', () => {
    assert.deepEqual(document().paths['/tasks/summary'].get.responses, {
      200: { description: 'Successful Response', content: json({ type: 'object', properties: { count: { type: 'number' } }, required: ['count'] }) },
      404: { description: 'Not Found', content: json(HTTP_ERROR) },
      503: { description: 'Service Unavailable', content: json({ type: 'object', properties: { retry: { type: 'number' } } }) },
    });
  });

  it('documents 400, 413 and 415 on JSON body routes, and the 422 envelope as before', () => {
    const { paths } = document();
    for (const operation of [paths['/tasks'].post, paths['/tasks/{task_id}'].put]) {
      assert.deepEqual(operation.responses['400'], BODY_ERRORS[400]);
      assert.deepEqual(operation.responses['413'], BODY_ERRORS[413]);
      assert.deepEqual(operation.responses['415'], BODY_ERRORS[415]);
      assert.deepEqual(operation.responses['422'], VALIDATION_ERROR);
    }
    // No body: none of them.
    assert.deepEqual(Object.keys(paths['/tasks/{task_id}'].get.responses), ['200', '404', '422']);
  });

  it('documents 400 and 413 on upload routes', () => {
    assert.deepEqual(document().paths['/upload'].post.responses, {
      200: { description: 'Successful Response', content: json({ type: 'object', properties: { size: { type: 'number' } } }) },
      400: { description: 'Malformed multipart body, another content type, or a file field the route does not take', content: json(HTTP_ERROR) },
      413: { description: 'A file or form field over the upload limits', content: json(HTTP_ERROR) },
    });
  });

  it('documents a required file as required, and its absence among the 400s', () => {
    const application = app();
    // Stands in for the upload decorator's `required` option (the STATUS helper's), read by isRequiredFile.
    const file = application.routes.find((route) => route.path === '/upload')!.params.find((p) => p.kind === 'file')!;
    Object.assign(file, { required: true });
    try {
      const { paths } = application.openapi() as ReturnType<typeof document>;
      assert.deepEqual(paths['/upload'].post.requestBody, {
        required: true,
        content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] } } },
      });
      assert.match(paths['/upload'].post.responses['400'].description, /; a missing file \("file"\)$/);
    } finally {
      delete (file as { required?: boolean }).required;
    }
  });

  it('lets the response option win over the return type', () => {
    const { paths, components } = document();
    assert.deepEqual(paths['/tasks/latest'].get.responses, {
      200: { description: 'Successful Response', content: json({ $ref: '#/components/schemas/TaskIn' }) },
    });
    assert.deepEqual(components.schemas.TaskIn.properties.title, { type: 'string', minLength: 1 });
  });

  it('lets a declared status win over what the handler body says', () => {
    class Declared extends router('/declared') {
      @Get('/{id}', { responses: { 404: 'No such thing' } }) one(@Path('id', { type: Int }) id: number) { return id; }
    }
    const table: TypeTable = { files: { [__filename]: { 'Declared.one': { statuses: [{ status: 404, message: 'Task not found' }] } } }, schemas: {} };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const doc: any = new BaseRouter({ sourceTypes: table }).includeRouter(new Declared()).openapi();
    assert.deepEqual(doc.paths['/declared/{id}'].get.responses['404'], { description: 'No such thing', content: json(HTTP_ERROR) });
  });

  it('joins the descriptions of one status found twice', () => {
    class Twice extends router('/twice') {
      @Post('/') make(@Body() body: TaskIn) { return body; }
    }
    const types: MethodTypes = { statuses: [{ status: 400, message: 'Title taken' }, { status: 404, message: 'No list' }, { status: 404, message: 'No owner' }] };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const doc: any = new BaseRouter({ sourceTypes: { files: { [__filename]: { 'Twice.make': types } }, schemas: {} } }).includeRouter(new Twice()).openapi();
    const { responses } = doc.paths['/twice'].post;
    assert.equal(responses['400'].description, `Title taken; ${BODY_ERRORS[400].description}`);
    assert.deepEqual(responses['404'], { description: 'No list; No owner', content: json(HTTP_ERROR) });
  });

  it('maps thrown classes through the exception-status hook, and leaves out the classes it does not know', () => {
    const routes = app().routes;
    const exceptionStatus = (name: string) => (name === 'NotFoundError' ? 404 : undefined);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const doc: any = buildOpenAPI({ title: 't', version: '1' }, routes, undefined, TABLE, exceptionStatus);
    assert.deepEqual(doc.paths['/tasks/lookup'].get.responses, {
      200: { description: 'Successful Response', content: json({ type: 'string' }) },
      404: { description: 'Not Found', content: json(HTTP_ERROR) },
      422: VALIDATION_ERROR,
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const withBody: any = buildOpenAPI({ title: 't', version: '1' }, routes, undefined, TABLE, () => ({ status: 410, schema: { type: 'object' } }));
    assert.deepEqual(withBody.paths['/tasks/lookup'].get.responses['410'], { description: 'Gone', content: json({ type: 'object' }) });
    // Without the hook the thrown classes are not documented.
    assert.equal(document().paths['/tasks/lookup'].get.responses['404'], undefined);
  });

  it('merges a source schema with the class-validator schema of the DTO class of its name, without a name clash', () => {
    const { paths, components } = document();
    assert.deepEqual(paths['/tasks/{task_id}'].put.responses['200'].content, json({ $ref: '#/components/schemas/TaskOut' }));
    // The rules' schema for id and title (integer, not number), the declaration's for `done`, which has no rule.
    assert.deepEqual(components.schemas.TaskOut, {
      type: 'object',
      properties: { id: { type: 'integer' }, title: { type: 'string' }, done: { type: 'boolean' } },
      required: ['id', 'title', 'done'],
    });
  });

  it('merges when the DTO class is registered from a body and the source table names it too', () => {
    class Both extends router('/both') {
      @Post('/') make(@Body() body: TaskOut) { return body; }
      @Get('/') read() { return null; }
    }
    const table: TypeTable = {
      files: { [__filename]: { 'Both.read': { returns: { kind: 'json', schema: { $ref: '#/components/schemas/TaskOut' } } } } },
      schemas: { TaskOut: TABLE.schemas.TaskOut },
    };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const doc: any = new BaseRouter({ sourceTypes: table }).includeRouter(new Both()).openapi();
    assert.deepEqual(Object.keys(doc.components.schemas.TaskOut.properties), ['id', 'title', 'done']);
    assert.equal(doc.paths['/both'].post.requestBody.content['application/json'].schema.$ref, '#/components/schemas/TaskOut');
  });

  it('keeps a returned class a named component when the table gives its declaration inline', () => {
    class Stats {
      count = 0;
    }
    class Inline extends router('/inline') {
      @Get('/') stats(): Stats { return new Stats(); }
      @Put('/') put(@Body() body: TaskOut): TaskOut { return body; }
    }
    const inline = { type: 'object', properties: { count: { type: 'number' }, by: { $ref: '#/components/schemas/User' } }, required: ['count'] };
    const table: TypeTable = {
      files: {
        [__filename]: {
          'Inline.stats': { returns: { kind: 'json', schema: inline } },
          'Inline.put': { returns: { kind: 'json', schema: TABLE.schemas.TaskOut } },
        },
      },
      schemas: { User: TABLE.schemas.User },
    };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const doc: any = new BaseRouter({ sourceTypes: table }).includeRouter(new Inline()).openapi();
    assert.deepEqual(doc.paths['/inline'].get.responses['200'].content, json({ $ref: '#/components/schemas/Stats' }));
    assert.deepEqual(doc.components.schemas.Stats, { type: 'object', properties: inline.properties, required: ['count'] });
    assert.deepEqual(doc.components.schemas.User, TABLE.schemas.User);
    assert.deepEqual(doc.paths['/inline'].put.responses['200'].content, json({ $ref: '#/components/schemas/TaskOut' }));
    assert.deepEqual(Object.keys(doc.components.schemas.TaskOut.properties), ['id', 'title', 'done']);
    assert.deepEqual(doc.components.schemas.TaskOut.properties.id, { type: 'integer' });
  });

  it('still refuses two different DTO classes with one name', () => {
    const make = () => {
      class TaskOut {
        @IsString() other!: string;
      }
      return TaskOut;
    };
    const Other = make();
    class Clash extends router('/clash') {
      @Post('/a') a(@Body() body: TaskOut) { return body; }
      @Post('/b') b(@Body() body: InstanceType<typeof Other>) { return body; }
    }
    Reflect.defineMetadata('design:paramtypes', [Other], Clash.prototype, 'b');
    assert.throws(() => new BaseRouter({ sourceTypes: TABLE }).includeRouter(new Clash()).openapi(), (e: unknown) => e instanceof TrellisError && e.code === 'TRELLIS_ERR_SCHEMA_NAME_CLASH');
  });

  it('without a table (sourceTypes: false), documents what runtime metadata says, as before', () => {
    const { paths } = document(false);
    assert.deepEqual(paths['/tasks'].get.responses['200'].content, json({}));
    assert.deepEqual(paths['/tasks/{task_id}'].put.responses['200'].content, json({ $ref: '#/components/schemas/TaskOut' }));
    assert.equal(paths['/tasks/{task_id}'].get.responses['404'], undefined);
    // Reading the body still answers them.
    assert.deepEqual(paths['/tasks'].post.responses['413'], BODY_ERRORS[413]);
  });
});
