import assert from 'node:assert/strict';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, it } from 'node:test';
import { BaseRouter, Get, Injectable, InjectionToken, Post, Request, router, type RequestOutcome } from '../index';
import { Depends, Header, Path, Query, Req } from '../param';
import { HTTPException } from '../http-exception';
import { TestClient } from '../testing';
import { capturedLog } from './fixtures/captured-log';

/** A log of what the request-scoped classes below saw, in order. */
type Calls = string[];

function scopedApp(calls: Calls) {
  const { logger, lines } = capturedLog();
  @Injectable()
  class Clock {
    now() { return 42; }
  }
  @Injectable({ scope: 'request' })
  class Tenant {
    constructor(@Header('X-Tenant', { default: 'public' }) readonly id: string) { calls.push(`Tenant(${id})`); }
    onRequestEnd(outcome: RequestOutcome) { calls.push(`Tenant.end ok=${outcome.ok} status=${outcome.status}`); }
  }
  @Injectable({ scope: 'request' })
  class UnitOfWork {
    static made = 0;
    readonly serial = ++UnitOfWork.made;
    constructor(readonly tenant: Tenant, readonly clock: Clock, readonly request: Request) { calls.push('UnitOfWork'); }
    onRequestEnd(outcome: RequestOutcome) { calls.push(`UnitOfWork.end ok=${outcome.ok} error=${outcome.error instanceof Error ? outcome.error.message : outcome.error}`); }
  }
  @Injectable()
  class ScopedRouter extends router('/scoped') {
    @Get() one(@Depends() uow: UnitOfWork, @Depends() tenant: Tenant) {
      return { tenant: tenant.id, same: uow.tenant === tenant, at: uow.clock.now(), path: uow.request.path, serial: uow.serial };
    }
    @Get('/fail') fail(@Depends() uow: UnitOfWork): never {
      throw new HTTPException(409, `conflict in ${uow.tenant.id}`);
    }
    @Get('/missing') missing(@Depends() uow: UnitOfWork) {
      return [{ tenant: uow.tenant.id }, 404];
    }
    @Post('/', { status: 201 }) create(@Depends() uow: UnitOfWork) { return { serial: uow.serial }; }
    @Get('/plain') plain() { return { plain: true }; }
  }
  const app = new BaseRouter({ logger, docs: false, sourceTypes: false }).provide(Clock).includeRouter(ScopedRouter);
  return { app, lines, UnitOfWork };
}

describe('request-scoped dependencies', () => {
  it('makes each once per request, shared by the handler and other providers, and tears them down newest first', async () => {
    const calls: Calls = [];
    const client = new TestClient(scopedApp(calls).app);
    const res = await client.get('/scoped', { headers: { 'x-tenant': 'acme' } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), { tenant: 'acme', same: true, at: 42, path: '/scoped', serial: 1 });
    assert.deepEqual(calls, ['Tenant(acme)', 'UnitOfWork', 'UnitOfWork.end ok=true error=undefined', 'Tenant.end ok=true status=200']);
    const second = await client.get('/scoped');
    assert.deepEqual(second.json(), { tenant: 'public', same: true, at: 42, path: '/scoped', serial: 2 });
  });

  it('tells the teardown a thrown HTTPException (ok false, the error), and the client still gets its status', async () => {
    const calls: Calls = [];
    const client = new TestClient(scopedApp(calls).app);
    const res = await client.get('/scoped/fail', { headers: { 'x-tenant': 'acme' } });
    assert.equal(res.status, 409);
    assert.deepEqual(res.json(), { error: 'conflict in acme' });
    assert.deepEqual(calls.slice(2), ['UnitOfWork.end ok=false error=conflict in acme', 'Tenant.end ok=false status=409']);
  });

  it('counts a returned status of 400 or more as not ok', async () => {
    const calls: Calls = [];
    const client = new TestClient(scopedApp(calls).app);
    const res = await client.get('/scoped/missing');
    assert.equal(res.status, 404);
    assert.deepEqual(calls.slice(2), ['UnitOfWork.end ok=false error=undefined', 'Tenant.end ok=false status=404']);
  });

  it('leaves routes without dependencies alone', async () => {
    const calls: Calls = [];
    const client = new TestClient(scopedApp(calls).app);
    const res = await client.get('/scoped/plain');
    assert.deepEqual(res.json(), { plain: true });
    assert.deepEqual(calls, []);
  });

  it('makes a request-scoped factory per request with the request and singletons it injects', async () => {
    const TENANT = new InjectionToken<string>('Tenant');
    const PREFIX = new InjectionToken<string>('Prefix');
    let runs = 0;
    @Injectable()
    class TenantRouter extends router('/tenant') {
      @Get() one(@Depends(TENANT) tenant: string, @Depends(PREFIX) prefix: string) { return { tenant, prefix }; }
    }
    const app = new BaseRouter({ docs: false, sourceTypes: false })
      .provide(
        { provide: PREFIX, useValue: 't-' },
        { provide: TENANT, scope: 'request', inject: [Request, PREFIX], useFactory: async (request: Request, prefix: string) => `${prefix}${request.headers['x-tenant']}#${++runs}` },
      )
      .includeRouter(TenantRouter);
    const client = new TestClient(app);
    assert.deepEqual((await client.get('/tenant', { headers: { 'x-tenant': 'a' } })).json(), { tenant: 't-a#1', prefix: 't-' });
    assert.deepEqual((await client.get('/tenant', { headers: { 'x-tenant': 'b' } })).json(), { tenant: 't-b#2', prefix: 't-' });
  });

  it('answers a 422 in the usual envelope for a value a dependency reads, before making anything', async () => {
    const made: string[] = [];
    @Injectable({ scope: 'request' })
    class Paging {
      constructor(@Query('page', { type: 'integer', minimum: 1 }) readonly page: number, @Header('X-Tenant') readonly tenant: string) { made.push('Paging'); }
    }
    @Injectable({ scope: 'request' })
    class Listing {
      constructor(readonly paging: Paging) { made.push('Listing'); }
    }
    @Injectable()
    class ListRouter extends router('/list') {
      @Get() list(@Depends() listing: Listing) { return { page: listing.paging.page, tenant: listing.paging.tenant }; }
    }
    const app = new BaseRouter({ docs: false, sourceTypes: false }).includeRouter(ListRouter);
    const client = new TestClient(app);
    const refused = await client.get('/list', { query: { page: '0' } });
    assert.equal(refused.status, 422);
    assert.deepEqual(refused.json().details, [
      { location: 'query', field: 'page', message: 'Input should be greater than or equal to 1' },
      { location: 'header', field: 'x-tenant', message: 'Field required' },
    ]);
    assert.deepEqual(made, []);
    const ok = await client.get('/list', { query: { page: '3' }, headers: { 'x-tenant': 'acme' } });
    assert.deepEqual(ok.json(), { page: 3, tenant: 'acme' });

    // The OpenAPI document lists what the dependency reads, through the provider that takes it, and the 422.
    const operation = app.openapi().paths['/list'].get as { parameters: unknown[]; responses: Record<string, unknown> };
    assert.deepEqual(operation.parameters, [
      { name: 'page', in: 'query', required: true, schema: { type: 'integer', minimum: 1 } },
      { name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string' } },
    ]);
    assert.ok(operation.responses['422']);
  });

  it('answers in the same turn when every part is synchronous, as a plain GET is', async () => {
    const calls: Calls = [];
    const { app } = scopedApp(calls);
    await app.start();
    for (const path of ['/scoped', '/scoped/plain']) {
      const req = new IncomingMessage(new Socket());
      Object.assign(req, { method: 'GET', url: path, headers: { host: 'x' }, complete: true });
      req.push(null);
      const res = new ServerResponse(req);
      let ended = false;
      res.end = (() => { ended = true; return res; }) as typeof res.end;
      app.handler(req, res);
      assert.equal(ended, true, `${path} is written before the listener returns`);
    }
    await app.stop();
  });

  it('gives a constructor @Req(), @Path and optional @Query values as a handler gets them', async () => {
    @Injectable({ scope: 'request' })
    class Lookup {
      constructor(@Req() readonly request: Request, @Path('id', { type: 'integer' }) readonly id: number, @Query('q', { default: null }) readonly q: string | null) {}
    }
    @Injectable()
    class ItemRouter extends router('/items/{id}') {
      @Get() one(@Depends() lookup: Lookup, @Path('id', { type: 'integer' }) id: number) {
        return { id: lookup.id, same: id === lookup.id, q: lookup.q, method: lookup.request.method };
      }
    }
    const client = new TestClient(new BaseRouter({ docs: false, sourceTypes: false }).includeRouter(ItemRouter));
    assert.deepEqual((await client.get('/items/7', { query: { q: 'x' } })).json(), { id: 7, same: true, q: 'x', method: 'GET' });
    assert.deepEqual((await client.get('/items/8')).json(), { id: 8, same: true, q: null, method: 'GET' });
    assert.equal((await client.get('/items/eight')).status, 422);
  });
});
