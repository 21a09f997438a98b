import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { SignJWT, UnsecuredJWT } from 'jose';
import { jwtAuth } from '../auth';
import { bearer, guarded, refusal, rsaKeys, SECRET, token } from './fixtures/auth-tokens';

const invalid = (description: string) => ({
  status: 401,
  challenge: `Bearer error="invalid_token", error_description="${description}"`,
  body: { error: description },
});
const now = () => Math.floor(Date.now() / 1000);

describe('jwtAuth: a valid token', () => {
  it('passes, and request.user holds its claims', async () => {
    const client = guarded(jwtAuth({ secret: SECRET }));
    const response = await client.get('/me', bearer(await token(SECRET, { sub: 'ada', tenant: 'acme' })));
    assert.equal(response.status, 200);
    assert.deepEqual({ sub: response.json().user.sub, tenant: response.json().user.tenant }, { sub: 'ada', tenant: 'acme' });
  });

  it('passes with the scheme in any case and an RS256 token verified by a PEM public key', async () => {
    const keys = await rsaKeys();
    const client = guarded(jwtAuth({ publicKey: keys.pem }));
    const signed = await token(keys.privateKey);
    assert.equal((await client.get('/me', { headers: { authorization: `bearer ${signed}` } })).status, 200);
    assert.equal((await client.get('/me', { headers: { authorization: `BEARER ${signed}` } })).status, 200);
  });
});

describe('jwtAuth refuses, each with 401, an RFC 6750 challenge and a body that never echoes the token', () => {
  it('a request without an Authorization header: the bare challenge (RFC 6750 §3.1)', async () => {
    assert.deepEqual(refusal(await guarded(jwtAuth({ secret: SECRET })).get('/me')), {
      status: 401,
      challenge: 'Bearer',
      body: { error: 'Missing bearer token: send Authorization: Bearer <token>' },
    });
  });

  it('a request without a token names the realm when one is set, its quotes escaped', async () => {
    const response = await guarded(jwtAuth({ secret: SECRET, realm: 'tasks "api"' })).get('/me');
    assert.equal(response.headers['www-authenticate'], 'Bearer realm="tasks \\"api\\""');
    const expired = await token(SECRET, { exp: now() - 60 });
    const refused = await guarded(jwtAuth({ secret: SECRET, realm: 'tasks' })).get('/me', bearer(expired));
    assert.equal(refused.headers['www-authenticate'], 'Bearer realm="tasks", error="invalid_token", error_description="The token has expired"');
  });

  it('another scheme (Basic): the bare challenge', async () => {
    assert.deepEqual(refusal(await guarded(jwtAuth({ secret: SECRET })).get('/me', { headers: { authorization: 'Basic YWRhOnNlY3JldA==' } })), {
      status: 401,
      challenge: 'Bearer',
      body: { error: 'The Authorization header is not a Bearer token' },
    });
  });

  it('a malformed token: not three parts, not base64url JSON, or nothing after the scheme', async () => {
    const client = guarded(jwtAuth({ secret: SECRET }));
    for (const value of ['Bearer not-a-jwt', 'Bearer a.b.c', 'Bearer ', `Bearer ${'x'.repeat(2000)}`, 'Bearer e30.e30.e30.e30']) {
      const response = await client.get('/me', { headers: { authorization: value } });
      assert.deepEqual(refusal(response), invalid('The token is malformed'), value);
      assert.ok(!response.body.toString().includes(value.slice(7) || '\u0000'), 'the body never holds the token');
    }
  });

  it('an unsecured token (alg: none)', async () => {
    const unsecured = new UnsecuredJWT({ sub: 'ada' }).setIssuedAt().setExpirationTime('10m').encode();
    const response = await guarded(jwtAuth({ secret: SECRET })).get('/me', bearer(unsecured));
    assert.deepEqual(refusal(response), invalid('The token is signed with an algorithm this API does not accept'));
    assert.ok(!response.body.toString().includes(unsecured));
  });

  it('an algorithm outside the allow-list (HS512 where HS256 is allowed)', async () => {
    const hs512 = await token(SECRET, {}, { alg: 'HS512' });
    assert.deepEqual(refusal(await guarded(jwtAuth({ secret: SECRET })).get('/me', bearer(hs512))), invalid('The token is signed with an algorithm this API does not accept'));
    assert.equal((await guarded(jwtAuth({ secret: SECRET, algorithms: ['HS256', 'HS512'] })).get('/me', bearer(hs512))).status, 200);
  });

  it('an HS256 token signed with the RS256 public key as HMAC secret (the algorithm-confusion attack)', async () => {
    const keys = await rsaKeys();
    const forged = await new SignJWT({ sub: 'mallory', scope: 'admin' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(keys.pem));
    const response = await guarded(jwtAuth({ publicKey: keys.pem })).get('/me', bearer(forged));
    assert.deepEqual(refusal(response), invalid('The token is signed with an algorithm this API does not accept'));
  });

  it('a bad signature: another secret, another key pair, a changed payload', async () => {
    const keys = await rsaKeys();
    const other = await rsaKeys();
    const bad = invalid('The token signature is invalid');
    assert.deepEqual(refusal(await guarded(jwtAuth({ secret: SECRET })).get('/me', bearer(await token('y'.repeat(32))))), bad);
    assert.deepEqual(refusal(await guarded(jwtAuth({ publicKey: keys.pem })).get('/me', bearer(await token(other.privateKey)))), bad);
    const [head, , signature] = (await token(SECRET, { sub: 'ada' })).split('.');
    const changed = `${head}.${Buffer.from(JSON.stringify({ sub: 'root', exp: now() + 600 })).toString('base64url')}.${signature}`;
    assert.deepEqual(refusal(await guarded(jwtAuth({ secret: SECRET })).get('/me', bearer(changed))), bad);
  });

  it('an expired token', async () => {
    const expired = await token(SECRET, { exp: now() - 60 });
    assert.deepEqual(refusal(await guarded(jwtAuth({ secret: SECRET })).get('/me', bearer(expired))), invalid('The token has expired'));
  });

  it('a token not valid yet (nbf in the future)', async () => {
    const early = await token(SECRET, { nbf: now() + 120 });
    assert.deepEqual(refusal(await guarded(jwtAuth({ secret: SECRET })).get('/me', bearer(early))), invalid('The token is not valid yet'));
  });

  it('a wrong issuer, and a token without one where one is required', async () => {
    const client = guarded(jwtAuth({ secret: SECRET, issuer: 'https://login.example.com' }));
    const wrong = invalid('The token issuer is not accepted');
    assert.deepEqual(refusal(await client.get('/me', bearer(await token(SECRET, { iss: 'https://evil.example.com' })))), wrong);
    assert.deepEqual(refusal(await client.get('/me', bearer(await token(SECRET)))), wrong);
    assert.equal((await client.get('/me', bearer(await token(SECRET, { iss: 'https://login.example.com' })))).status, 200);
  });

  it('a wrong audience; any one of several accepted audiences passes', async () => {
    const client = guarded(jwtAuth({ secret: SECRET, audience: ['tasks', 'billing'] }));
    assert.deepEqual(refusal(await client.get('/me', bearer(await token(SECRET, { aud: 'admin' })))), invalid('The token audience is not accepted'));
    assert.equal((await client.get('/me', bearer(await token(SECRET, { aud: ['other', 'billing'] })))).status, 200);
  });

  it('a claim of the wrong type (exp or nbf not a number)', async () => {
    const client = guarded(jwtAuth({ secret: SECRET }));
    const odd = await token(SECRET, { nbf: 'soon' } as never);
    assert.deepEqual(refusal(await client.get('/me', bearer(odd))), invalid('The token claims are invalid'));
    const [head] = (await token(SECRET)).split('.');
    const payload = Buffer.from(JSON.stringify({ sub: 'ada', exp: 'never' })).toString('base64url');
    const signature = createHmac('sha256', SECRET).update(`${head}.${payload}`).digest('base64url');
    assert.deepEqual(refusal(await client.get('/me', bearer(`${head}.${payload}.${signature}`))), invalid('The token claims are invalid'));
  });

  it('honours clockTolerance on exp and nbf', async () => {
    const lenient = guarded(jwtAuth({ secret: SECRET, clockTolerance: 30 }));
    const strict = guarded(jwtAuth({ secret: SECRET }));
    const justExpired = await token(SECRET, { exp: now() - 10 });
    const almostValid = await token(SECRET, { nbf: now() + 10 });
    assert.equal((await lenient.get('/me', bearer(justExpired))).status, 200);
    assert.equal((await lenient.get('/me', bearer(almostValid))).status, 200);
    assert.equal((await strict.get('/me', bearer(justExpired))).status, 401);
    assert.equal((await strict.get('/me', bearer(almostValid))).status, 401);
  });
});
