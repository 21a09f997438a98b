import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter, Get, Inject, Injectable, InjectionToken, Middleware, Request, router, type CallNext } from '../index';
import { Body, Depends, Header } from '../param';
import { TrellisError } from '../framework-error';
import { dryStart } from '../inspect-start';

@Injectable({ scope: 'request' })
class UnitOfWork {}

/**
 * The code and details of what setting up or starting `build()`'s app refuses: includeRouter checks a router's
 * constructor at once; the rest is found by the check `start()` and `trellis doctor` share (dryStart).
 */
async function refusal(build: () => BaseRouter): Promise<{ code: string; details: Record<string, unknown>; message: string }> {
  let app: BaseRouter;
  try {
    app = build();
  } catch (error) {
    assert.ok(error instanceof TrellisError, String(error));
    return { code: error.code, details: { ...error.details }, message: error.message };
  }
  const { problems } = await dryStart(app);
  const [first] = problems;
  assert.ok(first, 'the dry start found nothing');
  await assert.rejects(app.start(), (error: unknown) => error instanceof TrellisError && error.code === first.code && error.message === first.message);
  return { code: first.code, details: { ...first.details }, message: first.message };
}

describe('scope widening: a singleton that depends on a request-scoped provider', () => {
  it('refuses a service a router uses, naming both and the path from the router', async () => {
    @Injectable()
    class TaskService {
      constructor(readonly uow: UnitOfWork) {}
    }
    @Injectable()
    class TaskRouter extends router('/tasks') {
      constructor(readonly tasks: TaskService) { super(); }
      @Get() list() { return []; }
    }
    const { code, details, message } = await refusal(() => new BaseRouter({ docs: false, sourceTypes: false }).provide(TaskService, UnitOfWork).includeRouter(TaskRouter));
    assert.equal(code, 'TRELLIS_ERR_SCOPE_WIDENING');
    assert.deepEqual(details, { consumer: 'TaskService', dependency: 'UnitOfWork', path: 'TaskRouter -> TaskService -> UnitOfWork' });
    assert.match(message, /^TaskService lives for the whole app but depends on UnitOfWork, which lives for one request/);
  });

  it('refuses a router constructor taking one', async () => {
    @Injectable()
    class TaskRouter extends router('/tasks') {
      constructor(readonly uow: UnitOfWork) { super(); }
      @Get() list() { return []; }
    }
    const { details } = await refusal(() => new BaseRouter({ docs: false, sourceTypes: false }).includeRouter(TaskRouter));
    assert.deepEqual(details, { consumer: 'TaskRouter', dependency: 'UnitOfWork', path: 'TaskRouter -> UnitOfWork' });
  });

  it('refuses a middleware constructor taking one, the Request, or a header', async () => {
    @Injectable()
    class Audit extends Middleware {
      constructor(readonly uow: UnitOfWork) { super(); }
      dispatch(request: Request, next: CallNext) { return next(request); }
    }
    @Injectable()
    class Tracing extends Middleware {
      constructor(readonly request: Request) { super(); }
      dispatch(request: Request, next: CallNext) { return next(request); }
    }
    @Injectable()
    class Tenancy extends Middleware {
      constructor(@Header('X-Tenant') readonly tenant: string) { super(); }
      dispatch(request: Request, next: CallNext) { return next(request); }
    }
    const cases: Array<[Function, string]> = [[Audit, 'UnitOfWork'], [Tracing, 'Request'], [Tenancy, "@Header('x-tenant')"]];
    for (const [middleware, dependency] of cases) {
      const { code, details } = await refusal(() => new BaseRouter({ docs: false, sourceTypes: false }).addMiddleware(middleware as never));
      assert.equal(code, 'TRELLIS_ERR_SCOPE_WIDENING');
      assert.equal(details.consumer, middleware.name);
      assert.equal(details.dependency, dependency);
    }
  });

  it('refuses a singleton factory injecting one, and a provided service nothing uses yet', async () => {
    const REPORT = new InjectionToken<string>('Report');
    @Injectable()
    class ReportRouter extends router('/report') {
      constructor(@Inject(REPORT) readonly report: string) { super(); }
      @Get() one() { return this.report; }
    }
    const factoryApp = () =>
      new BaseRouter({ docs: false, sourceTypes: false }).provide({ provide: REPORT, useFactory: (uow: UnitOfWork) => String(uow), inject: [UnitOfWork] }).includeRouter(ReportRouter);
    assert.deepEqual((await refusal(factoryApp)).details, { consumer: 'factory of Report', dependency: 'UnitOfWork', path: 'ReportRouter -> factory of Report -> UnitOfWork' });

    @Injectable()
    class Unused {
      constructor(readonly uow: UnitOfWork) {}
    }
    assert.deepEqual((await refusal(() => new BaseRouter({ docs: false, sourceTypes: false }).provide(Unused))).details, {
      consumer: 'Unused',
      dependency: 'UnitOfWork',
      path: 'Unused -> UnitOfWork',
    });
  });

  it('accepts request-scoped providers taking singletons and each other, and @Depends of a singleton', async () => {
    @Injectable()
    class Clock {}
    @Injectable({ scope: 'request' })
    class Outer {
      constructor(readonly uow: UnitOfWork, readonly clock: Clock) {}
    }
    @Injectable()
    class OkRouter extends router('/ok') {
      @Get() one(@Depends() outer: Outer, @Depends() clock: Clock) { return { shared: outer.clock === clock }; }
    }
    const app = new BaseRouter({ docs: false, sourceTypes: false }).provide(Clock).includeRouter(OkRouter);
    assert.deepEqual((await dryStart(app)).problems, []);
    await app.start();
    await app.stop();
  });

  it('reports a @Depends() of something nobody provides, and of an interface type', async () => {
    class Missing {}
    @Injectable()
    class MissingRouter extends router('/m') {
      @Get() one(@Depends() missing: Missing) { return String(missing); }
    }
    const { code, details } = await refusal(() => new BaseRouter({ docs: false, sourceTypes: false }).includeRouter(MissingRouter));
    assert.equal(code, 'TRELLIS_ERR_UNKNOWN_DEPENDENCY');
    assert.deepEqual(details, { consumer: 'MissingRouter.one', dependency: 'Missing', parameter: 1, name: '@Depends() missing' });
  });

  it('refuses a request-scoped constructor taking the body, and @Depends() of an interface type', async () => {
    class NoteIn {}
    @Injectable({ scope: 'request' })
    class Draft {
      constructor(@Body() readonly note: NoteIn) {}
    }
    @Injectable()
    class DraftRouter extends router('/drafts') {
      @Get() one(@Depends() draft: Draft) { return String(draft); }
    }
    const body = await refusal(() => new BaseRouter({ docs: false, sourceTypes: false }).includeRouter(DraftRouter));
    assert.equal(body.code, 'TRELLIS_ERR_DEPENDENCY_PARAM');
    assert.deepEqual(body.details, { consumer: 'Draft', parameter: 1, decorator: '@Body()' });

    interface Clock { now(): number }
    @Injectable()
    class ClockRouter extends router('/clock') {
      @Get() one(@Depends() clock: Clock) { return clock.now(); }
    }
    const typed = await refusal(() => new BaseRouter({ docs: false, sourceTypes: false }).includeRouter(ClockRouter));
    assert.equal(typed.code, 'TRELLIS_ERR_UNINJECTABLE_PARAMETER');
    assert.equal(typed.details.consumer, 'ClockRouter.one');
  });

  it('refuses a provider scope that is neither singleton nor request', () => {
    assert.throws(
      () => new BaseRouter({ docs: false }).provide({ provide: 'X', useValue: 1, scope: 'session' } as never),
      (error: unknown) => error instanceof TrellisError && error.code === 'TRELLIS_ERR_INVALID_PROVIDER' && /scope is 'singleton' or 'request'/.test(error.message),
    );
  });

  it('takes @Depends(token) on a constructor as @Inject(token)', async () => {
    const GREETING = new InjectionToken<string>('Greeting');
    @Injectable({ scope: 'request' })
    class Greeter {
      constructor(@Depends(GREETING) readonly greeting: string) {}
    }
    @Injectable()
    class HelloRouter extends router('/hello') {
      @Get() one(@Depends() greeter: Greeter) { return { greeting: greeter.greeting }; }
    }
    const app = new BaseRouter({ docs: false, sourceTypes: false }).provide({ provide: GREETING, useValue: 'hi' }).includeRouter(HelloRouter);
    const { TestClient } = await import('../testing');
    assert.deepEqual((await new TestClient(app).get('/hello')).json(), { greeting: 'hi' });
  });

  it('reports request-scoped providers that need each other as a cycle', async () => {
    const A = new InjectionToken<unknown>('A');
    const B = new InjectionToken<unknown>('B');
    @Injectable()
    class CycleRouter extends router('/cycle') {
      @Get() one(@Depends(A) a: unknown) { return String(a); }
    }
    const { code, details } = await refusal(() =>
      new BaseRouter({ docs: false, sourceTypes: false })
        .provide({ provide: A, scope: 'request', useFactory: (b: unknown) => b, inject: [B] }, { provide: B, scope: 'request', useFactory: (a: unknown) => a, inject: [A] })
        .includeRouter(CycleRouter),
    );
    assert.equal(code, 'TRELLIS_ERR_CIRCULAR_DEPENDENCY');
    assert.deepEqual(details, { cycle: 'factory of A -> factory of B -> factory of A' });
  });
});
