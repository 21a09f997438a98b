import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter, Get, Inject, Injectable, InjectionToken, Post, Request, router, type RequestOutcome } from '../index';
import { Depends, Header, Query } from '../param';
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
  const app = new BaseRouter({ logger, docs: false }).provide(Clock).includeRouter(ScopedRouter);
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
});
