import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter, Get, Inject, Injectable, InjectionToken, router, type RequestOutcome } from '../index';
import { Depends } from '../param';
import { TrellisError } from '../framework-error';
import { TestClient } from '../testing';

class Mailer {
  sent: string[] = [];
  send(to: string) { this.sent.push(to); return `smtp:${to}`; }
}

@Injectable()
class Greeter {
  constructor(readonly mailer: Mailer) {}
  greet(name: string) { return this.mailer.send(name); }
}

@Injectable({ scope: 'request' })
class Session {
  constructor(readonly mailer: Mailer) {}
  who() { return 'real'; }
  onRequestEnd() {}
}

@Injectable({ scope: 'request' })
class Inbox {
  constructor(readonly session: Session) {}
}

@Injectable()
class MailRouter extends router('/mail') {
  constructor(private readonly greeter: Greeter) { super(); }
  @Get('/greet') greet() { return { sent: this.greeter.greet('ada') }; }
  @Get('/session') session(@Depends() session: Session) { return { who: session.who() }; }
  @Get('/inbox') inbox(@Depends() inbox: Inbox) { return { who: inbox.session.who() }; }
}

const appOf = () => new BaseRouter({ docs: false, sourceTypes: false }).provide(Mailer, Greeter).includeRouter(MailRouter);

describe('overrides: app.override and TestClient { overrides }', () => {
  it('replaces a service a router uses, for every consumer, whatever the order with provide', async () => {
    const fake = { sent: [] as string[], send: (to: string) => `fake:${to}` };
    const client = new TestClient(appOf(), { overrides: [[Mailer, fake]] });
    assert.deepEqual((await client.get('/mail/greet')).json(), { sent: 'fake:ada' });

    const early = new BaseRouter({ docs: false, sourceTypes: false }).override(Mailer, fake).provide(Mailer, Greeter).includeRouter(MailRouter);
    assert.deepEqual((await new TestClient(early).get('/mail/greet')).json(), { sent: 'fake:ada' });
  });

  it('replaces a request-scoped dependency by a value: the same value each request, its teardown run after each', async () => {
    const ends: boolean[] = [];
    const fakeSession = { who: () => 'fake', onRequestEnd: (outcome: RequestOutcome) => void ends.push(outcome.ok) };
    const client = new TestClient(appOf(), { overrides: [[Session, fakeSession]] });
    assert.deepEqual((await client.get('/mail/session')).json(), { who: 'fake' });
    assert.deepEqual((await client.get('/mail/session')).json(), { who: 'fake' });
    assert.deepEqual(ends, [true, true]);
  });

  it('replaces a dependency of a dependency, by a provider object made per request', async () => {
    let made = 0;
    class FakeSession {
      readonly serial = ++made;
      who() { return `fake #${this.serial}`; }
    }
    const client = new TestClient(appOf(), { overrides: [[Session, { provide: Session, scope: 'request', useClass: FakeSession }]] });
    assert.deepEqual((await client.get('/mail/inbox')).json(), { who: 'fake #1' });
    assert.deepEqual((await client.get('/mail/inbox')).json(), { who: 'fake #2' });
  });

  it('replaces a token a request-scoped factory gives, keeping its scope', async () => {
    const TENANT = new InjectionToken<string>('Tenant');
    let runs = 0;
    @Injectable()
    class TenantRouter extends router('/tenant') {
      @Get() one(@Depends(TENANT) tenant: string) { return { tenant }; }
    }
    const app = new BaseRouter({ docs: false, sourceTypes: false })
      .provide({ provide: TENANT, scope: 'request', useFactory: () => `real#${++runs}` })
      .includeRouter(TenantRouter);
    const client = new TestClient(app, { overrides: [[TENANT, 'fake']] });
    assert.deepEqual((await client.get('/tenant')).json(), { tenant: 'fake' });
    assert.equal(runs, 0);
  });

  it('does not build what it replaces: a replaced service with startup hooks never starts', async () => {
    const started: string[] = [];
    @Injectable()
    class Database {
      async onStartup() { started.push('Database'); }
    }
    @Injectable()
    class DbRouter extends router('/db') {
      constructor(@Inject(Database) readonly db: { name?: string }) { super(); }
      @Get() one() { return { name: this.db.name }; }
    }
    const app = new BaseRouter({ docs: false, sourceTypes: false }).provide(Database).includeRouter(DbRouter);
    const client = new TestClient(app, { overrides: [[Database, { name: 'in-memory' }]] });
    assert.deepEqual((await client.get('/db')).json(), { name: 'in-memory' });
    assert.deepEqual(started, []);
  });

  it('refuses an override once the app started, and TestClient overrides for a bare listener', async () => {
    const app = appOf();
    await app.start();
    assert.throws(() => app.override(Mailer, new Mailer()), (error: unknown) => error instanceof TrellisError && error.code === 'TRELLIS_ERR_APP_STARTED' && error.details.method === 'override');
    await app.stop();
    assert.throws(
      () => new TestClient(appOf().handler, { overrides: [[Mailer, new Mailer()]] }),
      (error: unknown) => error instanceof TrellisError && error.code === 'TRELLIS_ERR_OVERRIDE_INVALID' && error.details.token === 'Mailer',
    );
    assert.throws(() => appOf().override(undefined as never, 1), (error: unknown) => error instanceof TrellisError && error.code === 'TRELLIS_ERR_OVERRIDE_INVALID');
  });
});
