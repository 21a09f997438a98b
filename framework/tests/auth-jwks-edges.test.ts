import assert from 'node:assert/strict';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { jwtAuth } from '../auth';
import { bearer, guarded, refusal } from './fixtures/auth-tokens';

// Tokens against keys from a JWKS, where jose picks the key (kid, alg, kty, use) and, since the switch, fast-jwt
// verifies with it: each answers as jose alone answered it (checked against jose 6.2.18 before the switch).

const b64 = (part: unknown) => Buffer.from(JSON.stringify(part)).toString('base64url');
const later = () => ({ sub: 'ada', exp: Math.floor(Date.now() / 1000) + 600 });

function jws(header: object, key: KeyObject, options: { algorithm: string | null; padding?: number; saltLength?: number; dsaEncoding?: 'ieee-p1363' }): string {
  const input = `${b64(header)}.${b64(later())}`;
  const { algorithm, ...rest } = options;
  return `${input}.${sign(algorithm, Buffer.from(input), { key, ...rest }).toString('base64url')}`;
}

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const weak = generateKeyPairSync('rsa', { modulusLength: 1024 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ed = generateKeyPairSync('ed25519');
const jwk = (key: KeyObject, members: object) => ({ ...key.export({ format: 'jwk' }), use: 'sig', ...members });

const REFUSED = {
  unknownKey: 'No key of this API signed the token',
  algorithm: 'The token is signed with an algorithm this API does not accept',
  signature: 'The token signature is invalid',
} as const;

describe('jwtAuth with keys from a JWKS, verified by fast-jwt', () => {
  let server: Server;
  let url = '';
  before(async () => {
    const keys = [
      jwk(rsa.publicKey, { kid: 'rsa', alg: 'RS256' }),
      jwk(rsa.publicKey, { kid: 'rsa-any' }),
      jwk(ec.publicKey, { kid: 'ec', alg: 'ES256' }),
      jwk(ed.publicKey, { kid: 'ed', alg: 'EdDSA' }),
      jwk(weak.publicKey, { kid: 'weak', alg: 'RS256' }),
    ];
    server = createServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  const guard = (algorithms: string[]) => guarded(jwtAuth({ jwksUri: url, algorithms, cache: false }));
  const refused = (sentence: string) => ({ status: 401, challenge: `Bearer error="invalid_token", error_description="${sentence}"`, body: { error: sentence } });

  it('RS256, PS256 (a key without alg), ES256 and EdDSA members verify their tokens', async () => {
    const client = guard(['RS256', 'PS256', 'ES256', 'EdDSA']);
    const tokens = [
      jws({ alg: 'RS256', kid: 'rsa' }, rsa.privateKey, { algorithm: 'sha256' }),
      jws({ alg: 'PS256', kid: 'rsa-any' }, rsa.privateKey, { algorithm: 'sha256', padding: 6, saltLength: 32 }),
      jws({ alg: 'ES256', kid: 'ec' }, ec.privateKey, { algorithm: 'sha256', dsaEncoding: 'ieee-p1363' }),
      jws({ alg: 'EdDSA', kid: 'ed' }, ed.privateKey, { algorithm: null }),
      jws({ alg: 'RS256' }, rsa.privateKey, { algorithm: 'sha256' }).replace(/^[^.]+/, b64({ alg: 'RS256', kid: 'rsa' })),
    ];
    for (const [i, token] of tokens.slice(0, 4).entries()) {
      for (let twice = 0; twice < 2; twice++) assert.equal((await client.get('/me', bearer(token))).status, 200, `token ${i}`);
    }
    assert.deepEqual(refusal(await client.get('/me', bearer(tokens[4]))), refused(REFUSED.signature), 'another header than the one signed');
  });

  it('a member whose alg is RS256 does not verify a PS256 token (no key of this API), even when both are allowed', async () => {
    const token = jws({ alg: 'PS256', kid: 'rsa' }, rsa.privateKey, { algorithm: 'sha256', padding: 6, saltLength: 32 });
    assert.deepEqual(refusal(await guard(['RS256', 'PS256']).get('/me', bearer(token))), refused(REFUSED.unknownKey));
  });

  it('a token of an algorithm outside the list is refused before any key is looked up; alg none too', async () => {
    const es = jws({ alg: 'ES256', kid: 'ec' }, ec.privateKey, { algorithm: 'sha256', dsaEncoding: 'ieee-p1363' });
    assert.deepEqual(refusal(await guard(['RS256']).get('/me', bearer(es))), refused(REFUSED.algorithm));
    const none = `${b64({ alg: 'none', kid: 'rsa' })}.${b64(later())}.`;
    assert.deepEqual(refusal(await guard(['RS256']).get('/me', bearer(none))), refused(REFUSED.algorithm));
  });

  it('a member of under 2048 bits is never accepted (jose cannot verify with it)', async () => {
    const token = jws({ alg: 'RS256', kid: 'weak' }, weak.privateKey, { algorithm: 'sha256' });
    const response = await guard(['RS256']).get('/me', bearer(token));
    assert.deepEqual([response.status, response.json().error], [401, 'The keys that verify tokens are unavailable; try again later']);
  });

  it('another key pair under a known kid is a bad signature', async () => {
    const token = jws({ alg: 'RS256', kid: 'rsa' }, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, { algorithm: 'sha256' });
    assert.deepEqual(refusal(await guard(['RS256']).get('/me', bearer(token))), refused(REFUSED.signature));
  });
});
