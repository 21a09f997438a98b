import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IsNotEmpty, IsString } from 'class-validator';
import { BaseRouter, Config, Get, Injectable, Middleware, router, Settings, Use, type CallNext, type Request } from '../index';
import { ConfigSectionError } from '../config-section';
import { TestClient } from '../testing';

@Settings('admin')
class AdminSettings {
  @IsString() @IsNotEmpty() token!: string;
}

@Injectable()
class Stamp extends Middleware {
  constructor(private readonly admin: AdminSettings) {
    super();
  }
  async dispatch(request: Request, callNext: CallNext) {
    const response = await callNext(request);
    response.headers.set('x-token-length', String(this.admin.token.length));
    return response;
  }
}

@Injectable()
class AdminRouter extends router('/admin') {
  constructor(private readonly admin: AdminSettings) {
    super();
  }
  @Get() @Use(Stamp) show() { return { token: this.admin.token, typed: this.admin instanceof AdminSettings }; }
}

describe('@Settings classes, injected by type', () => {
  it('receive their validated section from the provided Config: routers and middleware share one instance', async () => {
    const client = new TestClient(new BaseRouter().provide(new Config({ admin: { token: 'abc' } })).includeRouter(AdminRouter));
    const res = await client.get('/admin');
    assert.deepEqual(res.json(), { token: 'abc', typed: true });
    assert.equal(res.headers['x-token-length'], '3');
    await client.close();
  });

  it('stop the start with a ConfigSectionError naming each setting, never its value', async () => {
    const app = new BaseRouter().provide(new Config({ admin: { token: 12345, secret: 's3cret' } })).includeRouter(AdminRouter);
    await assert.rejects(app.start(), (error: unknown) => {
      assert.ok(error instanceof ConfigSectionError);
      assert.deepEqual(error.problems.map((problem) => problem.message), [
        'admin.secret is not a setting of AdminSettings (its settings are token)',
        'admin.token must be a string',
      ]);
      assert.doesNotMatch(error.message, /s3cret|12345/);
      return true;
    });
  });

  it('are their section also when provided as a class (as services/ discovery does), never built empty', async () => {
    const app = new BaseRouter().provide(new Config({ admin: { token: 'xyz' } }), AdminSettings).includeRouter(AdminRouter);
    assert.deepEqual((await new TestClient(app).get('/admin')).json(), { token: 'xyz', typed: true });
  });

  it('need a Config: without one, the wiring check names it', () => {
    assert.throws(() => new BaseRouter().includeRouter(AdminRouter), { code: 'TRELLIS_ERR_UNKNOWN_TOKEN', message: /AdminSettings asks for Config/ });
  });
});
