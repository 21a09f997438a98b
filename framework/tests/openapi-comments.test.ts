import assert from 'node:assert/strict';
import Module from 'node:module';
import { describe, it } from 'node:test';
import { BaseRouter, Get, Post, router } from '../index';
import type { RouteInfo } from '../routing/route-info';
import { Header, Path } from '../param';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const operations = (...routers: object[]): any => {
  const app = new BaseRouter();
  for (const r of routers) app.includeRouter(r as never);
  return app.openapi().paths;
};

describe('OpenAPI summaries and descriptions from JSDoc', () => {
  it('takes the first line as summary and the rest as description', () => {
    class TaskRouter extends router('/tasks') {
      /**
       * List the tasks.
       *
       * Newest first; archived tasks are left out.
       * Use `?page=` to page through them.
       *
       * @returns the tasks
       */
      @Get() list() { return []; }

      /** Create a task. */
      @Post()
      async create() { return {}; }

      @Get('/count') countAll() { return 0; }
    }
    const paths = operations(new TaskRouter());
    assert.equal(paths['/tasks'].get.summary, 'List the tasks.');
    assert.equal(paths['/tasks'].get.description, 'Newest first; archived tasks are left out.\nUse `?page=` to page through them.');
    assert.equal(paths['/tasks'].post.summary, 'Create a task.');
    assert.equal(paths['/tasks'].post.description, undefined);
    // No comment: the handler name in words, as FastAPI does.
    assert.equal(paths['/tasks/count'].get.summary, 'Count All');
  });

  it('lets decorator options win over the comment', () => {
    class TaskRouter extends router('/tasks') {
      /**
       * From the comment.
       * Comment description.
       */
      @Get('/', { summary: 'From options', description: 'Options description' }) list() { return []; }
      /**
       * Summary from the comment.
       * Description from the comment.
       */
      @Get('/{id}', { summary: 'Only the summary from options' }) one(@Path('id') id: string) { return id; }
    }
    const paths = operations(new TaskRouter());
    assert.equal(paths['/tasks'].get.summary, 'From options');
    assert.equal(paths['/tasks'].get.description, 'Options description');
    assert.equal(paths['/tasks/{id}'].get.summary, 'Only the summary from options');
    assert.equal(paths['/tasks/{id}'].get.description, 'Description from the comment.');
  });

  it('marks an operation deprecated from @deprecated or the option', () => {
    class Old extends router('/old') {
      /**
       * The old list.
       * @deprecated use /tasks
       */
      @Get() list() { return []; }
      @Get('/one', { deprecated: true }) one() { return {}; }
      @Get('/two') two() { return {}; }
    }
    const paths = operations(new Old());
    assert.equal(paths['/old'].get.deprecated, true);
    assert.equal(paths['/old/one'].get.deprecated, true);
    assert.equal(paths['/old/two'].get.deprecated, undefined);
  });

  it('tells apart same-named classes in one file', () => {
    const first = (() => {
      class Notes extends router('/a') {
        /** Notes of the first kind. */
        @Get() list() { return []; }
      }
      return new Notes();
    })();
    const second = (() => {
      class Notes extends router('/b') {
        /** Notes of the second kind. */
        @Get() list() { return []; }
      }
      return new Notes();
    })();
    const paths = operations(first, second);
    assert.equal(paths['/a'].get.summary, 'Notes of the first kind.');
    assert.equal(paths['/b'].get.summary, 'Notes of the second kind.');
  });

  it('finds comments of handlers inherited from a base router', () => {
    abstract class Crud extends router('/things') {
      /** List every thing. */
      @Get() list() { return []; }
    }
    /** Things, from a generic base. */
    class ThingRouter extends Crud {
      /** One thing. */
      @Get('/{id}') one(@Header('X-Trace') trace: string) { return trace; }
    }
    const app = new BaseRouter().includeRouter(new ThingRouter());
    const { paths, tags } = app.openapi();
    assert.equal(paths['/things'].get.summary, 'List every thing.');
    assert.equal(paths['/things/{id}'].get.summary, 'One thing.');
    assert.deepEqual(tags, [{ name: 'Thing', description: 'Things, from a generic base.' }]);
  });

  it('falls back to the handler name when the source file cannot be read', () => {
    class Gone extends router('/gone') {
      /** Never read. */
      @Get() listAll() { return []; }
    }
    const app = new BaseRouter().includeRouter(new Gone());
    const route = app.routes[0] as RouteInfo;
    route.source = { file: '/nonexistent/gone.router.ts', line: 3 };
    assert.equal(app.openapi().paths['/gone'].get.summary, 'List All');
  });

  it('reads a precomputed table (a build\'s) instead of the source files, keyed by the file the routes were declared in', () => {
    class Built extends router('/built') {
      /** In the source, not in the table. */
      @Get() list() { return []; }
      @Get('/{id}') one(@Header('X-Trace') trace: string) { return trace; }
    }
    const file = __filename;
    const docComments = {
      [file]: [
        {
          name: 'Built',
          start: 1,
          end: 1_000,
          description: 'Built things.',
          methods: { list: { summary: 'From the table.', description: 'Second line.' }, one: { deprecated: true, headerNames: { 'x-trace': 'X-Trace' } } },
        },
      ],
    };
    const app = new BaseRouter({ docComments }).includeRouter(new Built());
    const { paths, tags } = app.openapi();
    assert.equal(paths['/built'].get.summary, 'From the table.');
    assert.equal(paths['/built'].get.description, 'Second line.');
    assert.equal(paths['/built/{id}'].get.deprecated, true);
    assert.deepEqual(paths['/built/{id}'].get.parameters!.filter((p: { in: string }) => p.in === 'header').map((p: { name: string }) => p.name), ['X-Trace']);
    assert.deepEqual(tags, [{ name: 'Built', description: 'Built things.' }]);
    // A file the table does not list has no comments: the source is not parsed.
    const other = new BaseRouter({ docComments: {} }).includeRouter(new Built());
    assert.equal(other.openapi().paths['/built'].get.summary, 'List');
  });
});

describe('OpenAPI without the typescript package', () => {
  it('builds the document without the comments when typescript cannot be found (a production install)', () => {
    class NoteRouter extends router('/notes') {
      /** List the notes. */
      @Get() list() { return []; }
    }
    assert.equal(operations(new NoteRouter())['/notes'].get.summary, 'List the notes.');

    // What a `npm install --omit=dev` without typescript looks like to require() (out of the module cache,
    // else require() answers from it without resolving).
    const loaded = require.resolve('typescript');
    const cached = require.cache[loaded];
    delete require.cache[loaded];
    const loader = Module as unknown as { _resolveFilename(this: unknown, request: string, ...rest: unknown[]): string };
    const resolve = loader._resolveFilename;
    loader._resolveFilename = function (request, ...rest) {
      if (request === 'typescript') throw Object.assign(new Error("Cannot find module 'typescript'"), { code: 'MODULE_NOT_FOUND' });
      return resolve.call(this, request, ...rest);
    };
    try {
      const paths = operations(new NoteRouter());
      assert.equal(paths['/notes'].get.summary, 'List'); // the handler name in words, as with no comment
    } finally {
      loader._resolveFilename = resolve;
      require.cache[loaded] = cached;
    }
  });
});
