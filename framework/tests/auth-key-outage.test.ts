import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { jwtAuth } from '../auth';
import { bearer, guarded, refusal, rsaKeys, token } from './fixtures/auth-tokens';
import { capturedLog, type LogLine } from './fixtures/captured-log';

// An identity provider whose answers a test switches: the key set and the discovery document each answer 200, or
// another status (a redirect names a Location), or a body that is not what it should be. Each request is counted.

type Answer = 200 | 302 | 404 | 500 | 503 | 'not json' | 'not a key set';

class Provider {
  keys: object[] = [];
  jwks: Answer = 200;
  discovery: Answer = 200;
  fetches = { jwks: 0, discovery: 0 };
  server!: Server;
  origin = '';

  async start() {
    this.server = createServer((req, res) => {
      const which = req.url === '/jwks.json' ? 'jwks' : req.url === '/.well-known/openid-configuration' ? 'discovery' : undefined;
      if (which === undefined) {
        res.writeHead(404).end();
        return;
      }
      this.fetches[which]++;
      const answer = this[which];
      const document = which === 'jwks' ? { keys: this.keys } : { issuer: this.origin, jwks_uri: `${this.origin}/jwks.json` };
      if (answer === 'not json') res.writeHead(200, { 'content-type': 'application/json' }).end('<html>maintenance</html>');
      else if (answer === 'not a key set') res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys": "none"}');
      else if (answer === 302) res.writeHead(302, { location: `${this.origin}/moved${req.url}` }).end();
      else if (answer !== 200) res.writeHead(answer, { 'content-type': 'text/plain' }).end('unavailable');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop() {
    return new Promise((resolve) => this.server.close(resolve));
  }
}

const UNAVAILABLE = {
  status: 401,
  challenge: 'Bearer error="invalid_token", error_description="The keys that verify tokens are unavailable; try again later"',
  body: { error: 'The keys that verify tokens are unavailable; try again later' },
};

const errorsOf = (lines: LogLine[]) => lines.filter((line) => line.level === 50);
const noticesOf = (lines: LogLine[]) => lines.filter((line) => line.level === 30 && String(line.msg).includes('available again'));

/** What a failed fetch's log line says of `answer`. */
const said: Record<Exclude<Answer, 200>, RegExp> = {
  302: /answered 302 \(a redirect to http:\/\/127\.0\.0\.1:\d+\/moved\/.+, not followed\)/,
  404: /answered 404/,
  500: /answered 500/,
  503: /answered 503/,
  'not json': /not JSON/,
  'not a key set': /not a JSON Web Key Set/,
};

describe('jwtAuth when the key set answers anything but 200 OK', () => {
  let provider: Provider;
  let keys: Awaited<ReturnType<typeof rsaKeys>>;
  let signed: string;
  before(async () => {
    provider = await new Provider().start();
    keys = await rsaKeys('key-1');
    provider.keys = [keys.jwk];
    signed = await token(keys.privateKey, {}, { kid: 'key-1' });
  });
  after(() => provider.stop());

  for (const answer of [503, 404, 302, 500, 'not json', 'not a key set'] as const) {
    it(`${answer}: every bearer is refused as "keys unavailable", one error line for the outage, one line when it ends`, async () => {
      provider.jwks = answer;
      const { logger, lines } = capturedLog();
      const client = guarded(jwtAuth({ jwksUri: `${provider.origin}/jwks.json`, jwksCooldown: 0, cache: false }), logger);
      for (let i = 0; i < 4; i++) assert.deepEqual(refusal(await client.get('/me', bearer(signed))), UNAVAILABLE);
      const errors = errorsOf(lines);
      assert.deepEqual(errors.map((line) => line.msg), ['GET /me: the keys that verify tokens could not be fetched'], 'one line for the outage, not one per request');
      assert.match(errors[0].err!.message, said[answer]);
      assert.ok(errors[0].err!.message.includes(`${provider.origin}/jwks.json`), errors[0].err!.message);
      assert.ok(!JSON.stringify(lines).includes(signed), 'the log never holds the token');

      provider.jwks = 200;
      assert.equal((await client.get('/me', bearer(signed))).status, 200);
      assert.equal((await client.get('/me', bearer(signed))).status, 200);
      const notices = noticesOf(lines);
      assert.equal(notices.length, 1, JSON.stringify(lines));
      assert.match(String(notices[0].msg), /the keys that verify tokens are available again/);
      assert.equal(notices[0].refused, 4);
      assert.equal(errorsOf(lines).length, 1);
    });
  }

  it('an outage after the keys were fetched: known keys still verify, a new kid is refused as unavailable, logged once', async () => {
    provider.jwks = 200;
    const { logger, lines } = capturedLog();
    const client = guarded(jwtAuth({ jwksUri: `${provider.origin}/jwks.json`, jwksCooldown: 0, cache: false }), logger);
    assert.equal((await client.get('/me', bearer(signed))).status, 200);
    provider.jwks = 503;
    const rotated = await rsaKeys('key-2');
    const fresh = await token(rotated.privateKey, {}, { kid: 'key-2' });
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(refusal(await client.get('/me', bearer(fresh))), UNAVAILABLE);
      assert.equal((await client.get('/me', bearer(signed))).status, 200, 'the cached key set still verifies its keys');
    }
    assert.equal(errorsOf(lines).length, 1);
    provider.keys = [keys.jwk, rotated.jwk];
    provider.jwks = 200;
    assert.equal((await client.get('/me', bearer(fresh))).status, 200);
    assert.equal(noticesOf(lines).length, 1);
    provider.keys = [keys.jwk];
  });

  it('after a failed fetch, requests within jwksCooldown are refused without another fetch; then it tries again', async () => {
    provider.jwks = 503;
    provider.fetches.jwks = 0;
    const { logger } = capturedLog();
    const cooldown = 300;
    const client = guarded(jwtAuth({ jwksUri: `${provider.origin}/jwks.json`, jwksCooldown: cooldown, cache: false }), logger);
    const started = Date.now();
    const statuses = await Promise.all(Array.from({ length: 10 }, () => client.get('/me', bearer(signed)).then((r) => r.status)));
    for (let i = 0; i < 10; i++) statuses.push((await client.get('/me', bearer(signed))).status);
    assert.deepEqual(new Set(statuses), new Set([401]));
    if (Date.now() - started < cooldown) assert.equal(provider.fetches.jwks, 1, 'one fetch for 20 requests within the cooldown');
    provider.jwks = 200;
    while (Date.now() - started < cooldown + 50) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.equal((await client.get('/me', bearer(signed))).status, 200);
  });

  it('an endpoint that does not answer: one line for many requests', async () => {
    const down = await new Provider().start();
    const origin = down.origin;
    await down.stop();
    const { logger, lines } = capturedLog();
    const client = guarded(jwtAuth({ jwksUri: `${origin}/jwks.json`, jwksCooldown: 0, cache: false }), logger);
    for (let i = 0; i < 5; i++) assert.deepEqual(refusal(await client.get('/me', bearer(signed))), UNAVAILABLE);
    assert.equal(errorsOf(lines).length, 1);
    assert.match(errorsOf(lines)[0].err!.message, /fetch failed/);
  });

  it('a key set slower than fetchTimeout: refused as unavailable, the line says it timed out', async () => {
    const slow = createServer(() => {}); // never answers
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const { logger, lines } = capturedLog();
      const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/jwks.json`;
      const client = guarded(jwtAuth({ jwksUri: url, fetchTimeout: 100, cache: false }), logger);
      assert.deepEqual(refusal(await client.get('/me', bearer(signed))), UNAVAILABLE);
      assert.match(errorsOf(lines)[0].err!.message, /timed out after 100 ms/);
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });
});

describe('jwtAuth when OpenID Connect discovery answers anything but 200 OK', () => {
  let provider: Provider;
  let signed: string;
  before(async () => {
    provider = await new Provider().start();
    const keys = await rsaKeys('idp-1');
    provider.keys = [keys.jwk];
    signed = await token(keys.privateKey, { iss: provider.origin }, { kid: 'idp-1' });
  });
  after(() => provider.stop());

  for (const answer of [503, 404, 302, 'not json'] as const) {
    it(`the discovery document answers ${answer}: refused as unavailable, one line, then it recovers`, async () => {
      provider.discovery = answer;
      provider.jwks = 200;
      const { logger, lines } = capturedLog();
      const client = guarded(jwtAuth({ issuer: provider.origin, jwksCooldown: 0, cache: false }), logger);
      for (let i = 0; i < 3; i++) assert.deepEqual(refusal(await client.get('/me', bearer(signed))), UNAVAILABLE);
      const errors = errorsOf(lines);
      assert.equal(errors.length, 1, JSON.stringify(lines));
      assert.match(errors[0].err!.message, said[answer]);
      assert.ok(errors[0].err!.message.includes(`${provider.origin}/.well-known/openid-configuration`), errors[0].err!.message);
      provider.discovery = 200;
      assert.equal((await client.get('/me', bearer(signed))).status, 200);
      assert.equal(noticesOf(lines).length, 1);
    });
  }

  it('discovery answers but its key set does not: the key set is named, one line, then it recovers', async () => {
    provider.discovery = 200;
    provider.jwks = 503;
    const { logger, lines } = capturedLog();
    const client = guarded(jwtAuth({ issuer: provider.origin, jwksCooldown: 0, cache: false }), logger);
    for (let i = 0; i < 3; i++) assert.deepEqual(refusal(await client.get('/me', bearer(signed))), UNAVAILABLE);
    assert.equal(errorsOf(lines).length, 1);
    assert.match(errorsOf(lines)[0].err!.message, /\/jwks\.json answered 503/);
    provider.jwks = 200;
    assert.equal((await client.get('/me', bearer(signed))).status, 200);
    assert.equal(noticesOf(lines).length, 1);
  });
});
