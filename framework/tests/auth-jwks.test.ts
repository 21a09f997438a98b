import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { jwtAuth } from '../auth';
import { bearer, guarded, refusal, rsaKeys, token } from './fixtures/auth-tokens';
import { capturedLog } from './fixtures/captured-log';

/** A local identity provider: a JWKS at /jwks.json (its keys can change), discovery at /.well-known/openid-configuration, counting fetches. */
class Provider {
  keys: object[] = [];
  fetches = { jwks: 0, discovery: 0 };
  discoveryIssuer: string | undefined;
  server!: Server;
  origin = '';

  async start() {
    this.server = createServer((req, res) => {
      if (req.url === '/jwks.json') {
        this.fetches.jwks++;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ keys: this.keys }));
      } else if (req.url === '/.well-known/openid-configuration') {
        this.fetches.discovery++;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ issuer: this.discoveryIssuer ?? this.origin, jwks_uri: `${this.origin}/jwks.json` }));
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop() {
    return new Promise((resolve) => this.server.close(resolve));
  }
}

describe('jwtAuth with a JWKS', () => {
  let provider: Provider;
  let first: Awaited<ReturnType<typeof rsaKeys>>;
  before(async () => {
    provider = await new Provider().start();
    first = await rsaKeys('key-1');
  });
  after(() => provider.stop());

  it('fetches the key set once for many requests', async () => {
    provider.keys = [first.jwk];
    provider.fetches.jwks = 0;
    const client = guarded(jwtAuth({ jwksUri: `${provider.origin}/jwks.json` }));
    const signed = await token(first.privateKey, {}, { kid: 'key-1' });
    const statuses = await Promise.all(Array.from({ length: 20 }, () => client.get('/me', bearer(signed)).then((r) => r.status)));
    assert.deepEqual(new Set(statuses), new Set([200]));
    assert.equal((await client.get('/me', bearer(signed))).status, 200);
    assert.equal(provider.fetches.jwks, 1);
  });

  it('refetches once for an unknown kid, then refuses it; a rotated key is found by that refetch', async () => {
    provider.keys = [first.jwk];
    provider.fetches.jwks = 0;
    const client = guarded(jwtAuth({ jwksUri: `${provider.origin}/jwks.json`, jwksCooldown: 0 }));
    assert.equal((await client.get('/me', bearer(await token(first.privateKey, {}, { kid: 'key-1' })))).status, 200);
    const stranger = await rsaKeys('key-9');
    const unknown = await client.get('/me', bearer(await token(stranger.privateKey, {}, { kid: 'key-9' })));
    assert.deepEqual(refusal(unknown), {
      status: 401,
      challenge: 'Bearer error="invalid_token", error_description="No key of this API signed the token"',
      body: { error: 'No key of this API signed the token' },
    });
    assert.equal(provider.fetches.jwks, 2, 'one fetch, then one refetch for the unknown kid');

    const rotated = await rsaKeys('key-2');
    provider.keys = [first.jwk, rotated.jwk];
    assert.equal((await client.get('/me', bearer(await token(rotated.privateKey, {}, { kid: 'key-2' })))).status, 200);
    assert.equal(provider.fetches.jwks, 3);
  });

  it('rate-limits refetches: a flood of unknown kids within the cooldown makes no more fetches', async () => {
    provider.keys = [first.jwk];
    provider.fetches.jwks = 0;
    const client = guarded(jwtAuth({ jwksUri: `${provider.origin}/jwks.json` }));
    assert.equal((await client.get('/me', bearer(await token(first.privateKey, {}, { kid: 'key-1' })))).status, 200);
    const stranger = await rsaKeys('x');
    const flood = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => (await client.get('/me', bearer(await token(stranger.privateKey, {}, { kid: `kid-${i}` })))).status),
    );
    assert.deepEqual(new Set(flood), new Set([401]));
    assert.equal(provider.fetches.jwks, 1);
  });

  it('answers 401 (not 500) when the key set cannot be fetched, and logs nothing of the token', async () => {
    const down = new Provider();
    await down.start();
    const origin = down.origin;
    await down.stop();
    const { logger, lines } = capturedLog();
    const client = guarded(jwtAuth({ jwksUri: `${origin}/jwks.json`, fetchTimeout: 2000 }), logger);
    const signed = await token(first.privateKey, {}, { kid: 'key-1' });
    assert.deepEqual(refusal(await client.get('/me', bearer(signed))), {
      status: 401,
      challenge: 'Bearer error="invalid_token", error_description="The keys that verify tokens are unavailable; try again later"',
      body: { error: 'The keys that verify tokens are unavailable; try again later' },
    });
    assert.equal((await client.get('/me')).status, 401);
    const errors = lines.filter((line) => line.level === 50);
    assert.deepEqual(errors.map((line) => line.msg), ['GET /me: the keys that verify tokens could not be fetched']);
    assert.match(errors[0].err!.message, /fetch failed/);
    assert.ok(!JSON.stringify(lines).includes(signed), 'the log never holds the token');
  });

  it('refuses a token whose alg is outside the allow-list even though the key set has its key', async () => {
    provider.keys = [first.jwk];
    const client = guarded(jwtAuth({ jwksUri: `${provider.origin}/jwks.json`, algorithms: ['ES256'] }));
    const response = await client.get('/me', bearer(await token(first.privateKey, {}, { kid: 'key-1' })));
    assert.equal(response.json().error, 'The token is signed with an algorithm this API does not accept');
  });
});

describe('jwtAuth with OpenID Connect discovery (issuer alone)', () => {
  let provider: Provider;
  let keys: Awaited<ReturnType<typeof rsaKeys>>;
  before(async () => {
    provider = await new Provider().start();
    keys = await rsaKeys('idp-1');
    provider.keys = [keys.jwk];
  });
  after(() => provider.stop());

  it('finds jwks_uri once at the first token, then verifies against it, the issuer checked', async () => {
    const client = guarded(jwtAuth({ issuer: provider.origin }));
    assert.equal(provider.fetches.discovery, 0, 'nothing fetched before the first token');
    const good = await token(keys.privateKey, { iss: provider.origin }, { kid: 'idp-1' });
    for (let i = 0; i < 3; i++) assert.equal((await client.get('/me', bearer(good))).status, 200);
    assert.deepEqual(provider.fetches, { discovery: 1, jwks: 1 });
    const foreign = await token(keys.privateKey, { iss: 'https://evil.example.com' }, { kid: 'idp-1' });
    assert.equal((await client.get('/me', bearer(foreign))).json().error, 'The token issuer is not accepted');
  });

  it('refuses with 401 when the discovery document names another issuer', async () => {
    provider.discoveryIssuer = 'https://someone-else.example.com';
    const { logger, lines } = capturedLog();
    try {
      const client = guarded(jwtAuth({ issuer: provider.origin }), logger);
      const good = await token(keys.privateKey, { iss: provider.origin }, { kid: 'idp-1' });
      assert.equal((await client.get('/me', bearer(good))).json().error, 'The keys that verify tokens are unavailable; try again later');
      assert.match(lines[0].err!.message, /names issuer "https:\/\/someone-else.example.com", not http/);
    } finally {
      provider.discoveryIssuer = undefined;
    }
  });
});
