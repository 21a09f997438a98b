import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter, Get, router, Use, type Request, type User } from '../index';
import { jwtAuth } from '../auth';
import { TrellisError } from '../framework-error';
import { Req } from '../param';
import { TestClient } from '../testing';
import { bearer, refusal, SECRET, token } from './fixtures/auth-tokens';
import { silentLogger } from './fixtures/captured-log';

/** An app whose handler keeps each request's `request.user` and tries to change it. */
function recording(options: Parameters<typeof jwtAuth>[0]) {
  const seen: Array<User | undefined> = [];
  @Use(jwtAuth(options))
  class Me extends router('/me') {
    @Get('') me(@Req() request: Request) {
      seen.push(request.user);
      let changed = true;
      try {
        (request.user as { sub?: string }).sub = 'mallory';
      } catch {
        changed = false;
      }
      return { sub: request.user?.sub, changed };
    }
  }
  return { seen, client: new TestClient(new BaseRouter({ logger: silentLogger() }).includeRouter(Me)) };
}

describe('the verified-token cache of jwtAuth', () => {
  it('verifies a token once: the same frozen claims serve its next requests; a handler cannot change them', async () => {
    const { seen, client } = recording({ secret: SECRET });
    const signed = await token(SECRET, { sub: 'ada', roles: ['admin'] });
    assert.deepEqual((await client.get('/me', bearer(signed))).json(), { sub: 'ada', changed: false });
    assert.deepEqual((await client.get('/me', bearer(signed))).json(), { sub: 'ada', changed: false });
    assert.equal(seen[0], seen[1], 'one verification, one claims object');
    assert.ok(Object.isFrozen(seen[0]) && Object.isFrozen(seen[0]!.roles));
  });

  it('cache: false verifies every request (claims still frozen)', async () => {
    const { seen, client } = recording({ secret: SECRET, cache: false });
    const signed = await token(SECRET);
    assert.deepEqual((await client.get('/me', bearer(signed))).json(), { sub: 'ada', changed: false });
    await client.get('/me', bearer(signed));
    assert.notEqual(seen[0], seen[1]);
  });

  it('keeps at most cache.max tokens: the oldest is verified again', async () => {
    const { seen, client } = recording({ secret: SECRET, cache: { max: 1 } });
    const [first, second] = [await token(SECRET, { sub: 'a' }), await token(SECRET, { sub: 'b' })];
    for (const signed of [first, first, second, first]) await client.get('/me', bearer(signed));
    assert.equal(seen[0], seen[1]);
    assert.notEqual(seen[0], seen[3], 'evicted by the second token, verified anew');
  });

  it('never serves a token past its exp: the refusal is "expired", as without a cache', async () => {
    const { client } = recording({ secret: SECRET });
    const exp = Math.floor(Date.now() / 1000) + 1;
    const signed = await token(SECRET, { exp });
    assert.equal((await client.get('/me', bearer(signed))).status, 200);
    // Wait for the clock to pass exp (a condition, not a fixed sleep), then ask again.
    while (Date.now() < exp * 1000) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(refusal(await client.get('/me', bearer(signed))), {
      status: 401,
      challenge: 'Bearer error="invalid_token", error_description="The token has expired"',
      body: { error: 'The token has expired' },
    });
  });

  it('refuses cache options it cannot use', () => {
    for (const [cache, option] of [[{ max: -1 }, 'cache.max'], [{ max: 1.5 }, 'cache.max'], [{ ttl: -1 }, 'cache.ttl'], ['yes', 'cache']] as const) {
      assert.throws(() => jwtAuth({ secret: SECRET, cache: cache as never }), (error: TrellisError) => error.code === 'TRELLIS_ERR_AUTH_OPTION' && error.details.option === option);
    }
  });
});
