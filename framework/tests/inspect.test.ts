import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BaseRouter, Get, Injectable, router } from '../index';
import { TrellisError } from '../framework-error';
import type { Class } from '../core/types';
import {
  declarationOf,
  handlerOf,
  importsOf,
  injects,
  inspectApp,
  isMiddlewareClass,
  isRouterClass,
  outranks,
  pathParams,
  pathShape,
  stackLocations,
  type SourceLocation,
} from '../inspect';
import { Path } from '../param';
import { Audit, ItemIn, ItemOut, ItemRouter, Store, ThingRouter } from './fixtures/inspect/routers';

const FIXTURE = join(__dirname, 'fixtures', 'inspect');
const ROUTERS = join(FIXTURE, 'routers.ts');
const where = (location: SourceLocation | undefined) => location && `${basename(location.file)}:${location.line}`;

const temp = mkdtempSync(join(tmpdir(), 'trellis-inspect-'));
after(() => rmSync(temp, { recursive: true, force: true }));

/** What including `routers` into one app throws. */
function refusal(...routers: Class[]): TrellisError {
  const app = new BaseRouter().provide(Store);
  try {
    for (const cls of routers) app.includeRouter(cls);
  } catch (error) {
    assert.ok(error instanceof TrellisError, String(error));
    return error;
  }
  assert.fail('the app took every router');
}

describe('inspectApp', () => {
  const cors = (_req: IncomingMessage, _res: ServerResponse, next: () => void) => next();
  const app = new BaseRouter({ docs: false })
    .provide(Store)
    .includeRouter(ItemRouter)
    .includeRouter(new ThingRouter().addMiddleware(Audit, new Audit(), cors, (_req, _res, next) => next()));
  const { routes } = inspectApp(app);

  it('lists app.routes in order, each at the line of its handler method, an inherited one in its base class file', () => {
    assert.deepEqual(
      routes.map((route) => [route.method, route.path, route.label, route.handler, route.router, where(route.source)]),
      [
        ['GET', '/items/{item_id}', 'ItemRouter.one', 'one', ItemRouter, 'routers.ts:29'],
        ['POST', '/items/{group}/{item_id}', 'ItemRouter.create', 'create', ItemRouter, 'routers.ts:34'],
        ['GET', '/things', 'ThingRouter.list', 'list', ThingRouter, 'base.ts:6'],
      ],
    );
    assert.deepEqual(routes.map((route) => route.info), app.routes);
    assert.equal(routes[0].source?.file, ROUTERS);
  });

  it('gives the path parameters, those @Path binds, whether the handler takes @Req(), and the models it names', () => {
    assert.deepEqual(
      routes.map((route) => [route.pathParams, route.boundParams, route.takesRequest, route.models]),
      [
        [['item_id'], ['item_id'], false, [ItemOut]],
        [['group', 'item_id'], ['item_id'], true, [ItemIn]],
        [[], [], false, []],
      ],
    );
  });

  it("names each router middleware: a class, an instance's class, an Express function (anonymous without a name)", () => {
    assert.deepEqual(routes[0].middleware, []);
    assert.deepEqual(routes[2].middleware, [
      { name: 'Audit', class: Audit },
      { name: 'Audit', class: Audit },
      { name: 'cors', class: undefined },
      { name: 'anonymous', class: undefined },
    ]);
  });

  it('falls back to where the route decorator ran when typescript cannot be found (a production install)', () => {
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
      assert.deepEqual(
        inspectApp(app).routes.map((route) => route.source),
        app.routes.map((route) => route.source),
      );
      assert.equal(declarationOf(ROUTERS, 'ItemRouter'), undefined);
    } finally {
      loader._resolveFilename = resolve;
      require.cache[loaded] = cached;
    }
    assert.equal(declarationOf(ROUTERS, 'ItemRouter')?.line, 23);
  });

  it('marks every route of an included router as part of the OpenAPI document, the docs pages as not', () => {
    assert.deepEqual(routes.map((route) => route.inSchema), [true, true, true]);
    const withDocs = inspectApp(new BaseRouter().provide(Store).includeRouter(ItemRouter)).routes;
    assert.deepEqual(
      withDocs.map((route) => `${route.label} ${route.inSchema}`),
      ['ItemRouter.one true', 'ItemRouter.create true', ...['landing', 'swagger', 'redoc', 'swaggerInit', 'json', 'yaml', 'asset', 'versioned'].map((h) => `DocsRouter.${h} false`)],
    );
  });
});

describe('declarationOf', () => {
  it('finds a class, a method, the constructor and a property at the line of their names', () => {
    assert.deepEqual(declarationOf(ROUTERS, 'ItemRouter'), { file: ROUTERS, line: 23 });
    assert.equal(declarationOf(ROUTERS, 'ItemRouter', 'create')?.line, 34);
    assert.equal(declarationOf(ROUTERS, 'ItemRouter', 'constructor')?.line, 24);
    assert.equal(declarationOf(ROUTERS, 'ItemIn', 'name')?.line, 7);
  });

  it('is undefined for a class or member the file does not declare, and for a file that cannot be read', () => {
    assert.equal(declarationOf(ROUTERS, 'ItemRouter', 'remove'), undefined);
    assert.equal(declarationOf(ROUTERS, 'OrderRouter'), undefined);
    assert.equal(declarationOf(join(FIXTURE, 'missing.ts'), 'ItemRouter'), undefined);
  });

  it('reads JavaScript, tells same-named classes apart by a nearby line, and parses a changed file again', () => {
    const file = join(temp, 'api.js');
    const versions = (n: number) =>
      ['function v1() {', '  class Api {', '    list() {}', '  }', '}', ...Array(n).fill(''), 'function v2() {', '  class Api {', '    list() {}', '  }', '}'].join('\n');
    writeFileSync(file, versions(0));
    assert.deepEqual([declarationOf(file, 'Api', 'list', 3)?.line, declarationOf(file, 'Api', 'list', 9)?.line], [3, 8]);
    writeFileSync(file, versions(4));
    assert.equal(declarationOf(file, 'Api', 'list', 12)?.line, 12);
  });
});

describe('importsOf and stackLocations', () => {
  it('lists the modules a file imports at run time, with their lines', () => {
    assert.deepEqual(importsOf(ROUTERS), [
      { specifier: 'class-validator', line: 1 },
      { specifier: '../../../index', line: 2 },
      { specifier: '../../../param', line: 3 },
      { specifier: './base', line: 4 },
    ]);
    const file = join(temp, 'types.ts');
    writeFileSync(file, "import type { A } from './a';\nexport type { B } from './b';\nconst c = require('./c');\nexport * from './d';\n");
    assert.deepEqual(importsOf(file), [
      { specifier: './c', line: 3 },
      { specifier: './d', line: 4 },
    ]);
  });

  it('gives the file and line of each frame of a stack, innermost first, frames without a file left out', () => {
    const made = () => {
      return new Error('made here');
    };
    const line = readFileSync(__filename, 'utf8').split('\n').findIndex((text) => text.trimStart().startsWith("return new Error('made")) + 1;
    assert.deepEqual(stackLocations(made().stack!)[0], { file: __filename, line });
    const stack = ['Error: at /not/a/frame.ts:1:1', '    at file:///srv/my%20app/main.mjs:3:9', '    at async Promise.all (index 0)', '    at run (/srv/app/x.js:10:5)'];
    assert.deepEqual(stackLocations(stack.join('\n')), [
      { file: '/srv/my app/main.mjs', line: 3 },
      { file: '/srv/app/x.js', line: 10 },
    ]);
  });
});

describe('TrellisError details', () => {
  it('names both handlers of a duplicate route, the one being included as `handler`', () => {
    class First extends router('/x') {
      @Get('/{a}') list() {}
    }
    class Second extends router('/x') {
      @Get('/{b}') other() {}
    }
    const error = refusal(First, Second);
    assert.equal(error.message, 'Duplicate route GET /x/{b}: First.list and Second.other declare the same method and path');
    assert.deepEqual(error.details, { route: 'GET /x/{b}', existing: 'First.list', handler: 'Second.other' });
    assert.ok(Object.isFrozen(error.details));
  });

  it('names the consumer, the dependency and the parameter of a missing service, and the handler of a bad @Path', () => {
    class Mailer {}
    @Injectable()
    class MailRouter extends router('/mail') {
      constructor(readonly store: Store, readonly mailer: Mailer) {
        super();
      }
    }
    assert.deepEqual(refusal(MailRouter).details, { consumer: 'MailRouter', dependency: 'Mailer', parameter: 2, name: 'mailer' });
    class OrderRouter extends router('/orders') {
      @Get('/{order_id}') one(@Path('ident') id: string) {
        return id;
      }
    }
    const error = refusal(OrderRouter);
    assert.equal(error.message, "OrderRouter.one: @Path('ident') names no {ident} in the route path /orders/{order_id}");
    assert.deepEqual(error.details, { handler: 'OrderRouter.one', parameter: 'ident', path: '/orders/{order_id}' });
    assert.equal(handlerOf(OrderRouter, error.details.handler), 'one');
  });
});

describe('the rules tools share with the framework', () => {
  it('handlerOf: the method a route label names, among the routes a router declares or inherits', () => {
    assert.equal(handlerOf(ItemRouter, 'ItemRouter.create'), 'create');
    assert.equal(handlerOf(ThingRouter, 'ThingRouter.list'), 'list');
    assert.equal(handlerOf(ItemRouter, 'ThingRouter.list'), undefined);
    assert.equal(handlerOf(ItemRouter, 'ItemRouter.constructor'), undefined);
    assert.equal(handlerOf(ItemRouter, undefined), undefined);
  });

  it('pathParams and pathShape: the parameters of a path, and what makes two paths the same route', () => {
    assert.deepEqual(pathParams('/users/{user_id}/friends/{friend_id}'), ['user_id', 'friend_id']);
    assert.throws(() => pathParams('/a/{x}/{x}'), (error: TrellisError) => {
      assert.deepEqual(error.details, { path: '/a/{x}/{x}', reason: '{x} appears twice' });
      return error.code === 'TRELLIS_ERR_INVALID_PATH';
    });
    assert.equal(pathShape('/a/{x}/b'), pathShape('/a/{y}/b'));
    assert.notEqual(pathShape('/a/{x}'), pathShape('/a/x'));
  });

  it('outranks: a literal segment takes the requests a {param} in its place would match, whatever the order', () => {
    assert.equal(outranks('/users/me', '/users/{user_id}'), true);
    assert.equal(outranks('/users/{user_id}', '/users/me'), false);
    assert.equal(outranks('/users/{id}', '/users/{user_id}'), false);
    assert.equal(outranks('/users/me/friends', '/users/{user_id}'), false);
    assert.equal(outranks('/teams/me', '/users/{user_id}'), false);
  });

  it('isRouterClass, isMiddlewareClass and injects: what discovery takes and what the container passes', () => {
    assert.deepEqual([isRouterClass(ItemRouter), isRouterClass(Store), isMiddlewareClass(Audit), isMiddlewareClass(new Audit())], [true, false, true, false]);
    class CachedStore extends Store {}
    assert.deepEqual([injects(ItemRouter, Store), injects(ItemRouter, CachedStore), injects(ItemRouter, ItemIn), injects(Store, ItemRouter)], [true, true, false, false]);
  });
});
