import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { describe, it } from 'node:test';
import { BaseRouter, Get, router, serverUrl } from '../index';
import { apiKeyAuth } from '../auth';
import { TrellisError } from '../framework-error';
import type { Request } from '../request';
import { guarded, refusal } from './fixtures/auth-tokens';
import { silentLogger } from './fixtures/captured-log';

const KEY = 'k-0123456789abcdef0123456789abcdef';
const OTHER = 'k-fedcba9876543210fedcba9876543210';

const missing = { status: 401, challenge: 'ApiKey header="X-API-Key"', body: { error: 'Missing API key: send it in the X-API-Key header' } };
const wrong = { status: 401, challenge: 'ApiKey header="X-API-Key"', body: { error: 'Invalid API key' } };

describe('apiKeyAuth', () => {
  it('takes a listed key from the X-API-Key header and sets request.user', async () => {
    const client = guarded(apiKeyAuth({ lookup: [OTHER, KEY] }));
    const response = await client.get('/me', { headers: { 'x-api-key': KEY } });
    assert.equal(response.status, 200);
    assert.deepEqual(response.json(), { user: { sub: 'api-key-2' } });
  });

  it('gives the principal a Map holds for the key', async () => {
    const client = guarded(apiKeyAuth({ header: 'X-Partner-Key', lookup: new Map([[KEY, { sub: 'partner-acme', plan: 'gold' }]]) }));
    assert.deepEqual((await client.get('/me', { headers: { 'x-partner-key': KEY } })).json(), { user: { sub: 'partner-acme', plan: 'gold' } });
  });

  it('asks a lookup function (sync or async) for the principal; undefined or null is a 401, a throw a 500', async () => {
    const seen: string[] = [];
    const lookup = async (key: string, request: Request) => {
      seen.push(`${request.path} ${key}`);
      if (key === 'explode') throw new Error('store down');
      return key === KEY ? { sub: 'svc' } : key === OTHER ? null : undefined;
    };
    const client = guarded(apiKeyAuth({ lookup }));
    assert.deepEqual((await client.get('/me', { headers: { 'x-api-key': KEY } })).json(), { user: { sub: 'svc' } });
    assert.deepEqual(refusal(await client.get('/me', { headers: { 'x-api-key': OTHER } })), wrong);
    assert.deepEqual(refusal(await client.get('/me', { headers: { 'x-api-key': 'nope' } })), wrong);
    assert.deepEqual(refusal(await client.get('/me', { headers: { 'x-api-key': 'explode' } })), { status: 500, challenge: undefined, body: { error: 'Internal Server Error' } });
    assert.deepEqual(seen, [`/me ${KEY}`, `/me ${OTHER}`, '/me nope', '/me explode']);
    const sync = guarded(apiKeyAuth({ lookup: (key) => (key === KEY ? { sub: 'sync' } : undefined) }));
    assert.deepEqual((await sync.get('/me', { headers: { 'x-api-key': KEY } })).json(), { user: { sub: 'sync' } });
  });

  it('refuses a missing, empty, wrong or very long key with 401, never echoing it', async () => {
    const client = guarded(apiKeyAuth({ lookup: [KEY] }));
    assert.deepEqual(refusal(await client.get('/me')), missing);
    assert.deepEqual(refusal(await client.get('/me', { headers: { 'x-api-key': '' } })), missing);
    assert.deepEqual(refusal(await client.get('/me', { headers: { 'x-api-key': OTHER } })), wrong);
    assert.deepEqual(refusal(await client.get('/me', { headers: { 'x-api-key': KEY.slice(0, -1) } })), wrong);
    assert.deepEqual(refusal(await client.get('/me', { headers: { 'x-api-key': `${KEY}x` } })), wrong);
    const long = KEY + 'a'.repeat(10_000);
    const refused = await client.get('/me', { headers: { 'x-api-key': long } });
    assert.deepEqual(refusal(refused), wrong);
    assert.ok(!refused.body.toString().includes(KEY));
  });

  it('refuses a key sent in two headers (Node joins them: neither is taken), over a real socket', async () => {
    const server = await new BaseRouter({ logger: silentLogger() }).addMiddleware(apiKeyAuth({ lookup: [KEY] })).listen({ port: 0, host: '127.0.0.1' });
    try {
      const url = new URL('/anything', serverUrl(server));
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(url, { headers: ['host', url.host, 'x-api-key', KEY, 'x-api-key', KEY] as unknown as Record<string, string> }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject).end();
      });
      assert.equal(status, 401);
      // CR/LF never reaches the guard in a header (Node's parser answers 400); in the query it is refused like any wrong key.
      const crlf = await fetch(new URL(`/x?api_key=${encodeURIComponent(`${KEY}\r\nX-Evil: 1`)}`, serverUrl(server)));
      assert.equal(crlf.status, 401);
      assert.equal(crlf.headers.get('x-evil'), null);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('reads the key from a query parameter; a repeated parameter is refused', async () => {
    const client = guarded(apiKeyAuth({ query: 'api_key', lookup: [KEY] }));
    assert.equal((await client.get(`/me?api_key=${KEY}`)).status, 200);
    assert.deepEqual(refusal(await client.get('/me')), { status: 401, challenge: 'ApiKey query="api_key"', body: { error: 'Missing API key: send it in the api_key query parameter' } });
    assert.equal((await client.get(`/me?api_key=${KEY}&api_key=${KEY}`)).status, 401);
    assert.equal((await client.get(`/me?api_key=${encodeURIComponent(`${KEY}\r\n`)}`)).status, 401);
  });

  it('is documented as an apiKey scheme, in a header or the query', () => {
    class Reports extends router('/reports') {
      @Get('') list() {
        return [];
      }
    }
    const header = new BaseRouter().addMiddleware(apiKeyAuth({ lookup: [KEY], header: 'X-Partner-Key', schemeName: 'partnerKey' })).includeRouter(Reports).openapi();
    assert.deepEqual(header.components?.securitySchemes, { partnerKey: { type: 'apiKey', in: 'header', name: 'X-Partner-Key' } });
    assert.deepEqual(header.paths['/reports'].get.security, [{ partnerKey: [] }]);
    const query = new BaseRouter().addMiddleware(apiKeyAuth({ query: 'api_key', lookup: [KEY] })).includeRouter(Reports).openapi();
    assert.deepEqual(query.components?.securitySchemes, { apiKeyAuth: { type: 'apiKey', in: 'query', name: 'api_key' } });
  });

  it('refuses options it cannot check with: TRELLIS_ERR_AUTH_OPTION', () => {
    const refused = (options: unknown, option: string) =>
      assert.throws(
        () => apiKeyAuth(options as never),
        (error: TrellisError) => error.code === 'TRELLIS_ERR_AUTH_OPTION' && error.details.guard === 'apiKeyAuth' && error.details.option === option,
      );
    refused({}, 'lookup');
    refused({ lookup: [] }, 'lookup');
    refused({ lookup: ['short'] }, 'lookup');
    refused({ lookup: [KEY], header: 'X Api Key' }, 'header');
    refused({ lookup: [KEY], header: 'X-Key', query: 'key' }, 'query');
    refused({ lookup: [KEY], realm: 'bad\r\nrealm' }, 'realm');
  });
});
