import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { jwtAuth, signToken } from '../auth';
import { TrellisError } from '../framework-error';
import { bearer, guarded, rsaKeys, SECRET, token } from './fixtures/auth-tokens';

const refused = (options: unknown, option: string, reason: RegExp) =>
  assert.throws(
    () => jwtAuth(options as never),
    (error: TrellisError) => {
      assert.equal(error.code, 'TRELLIS_ERR_AUTH_OPTION');
      assert.deepEqual([error.details.guard, error.details.option], ['jwtAuth', option]);
      assert.match(String(error.details.reason), reason);
      return true;
    },
  );

describe('jwtAuth options, checked when the guard is made', () => {
  it('needs exactly one key source', () => {
    refused({}, 'secret', /give a key source/);
    refused({ secret: SECRET, jwksUri: 'https://x.example.com/jwks' }, 'secret, jwksUri', /one key source/);
  });

  it('refuses algorithms the key cannot verify: HS* with a public key or a JWKS (algorithm confusion), RS* with a secret', async () => {
    const { pem } = await rsaKeys();
    refused({ publicKey: pem, algorithms: ['RS256', 'HS256'] }, 'algorithms', /algorithm-confusion/);
    refused({ jwksUri: 'https://x.example.com/jwks', algorithms: ['HS256'] }, 'algorithms', /algorithm-confusion/);
    refused({ secret: SECRET, algorithms: ['RS256'] }, 'algorithms', /HS256, HS384 or HS512/);
    refused({ secret: SECRET, algorithms: ['none'] }, 'algorithms', /cannot verify/);
    refused({ secret: SECRET, algorithms: [] }, 'algorithms', /non-empty/);
  });

  it('refuses a short secret, a PEM given as a secret, a private key or a broken PEM as public key', () => {
    refused({ secret: 'short' }, 'secret', /at least 32 bytes/);
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    refused({ secret: publicKey.export({ type: 'spki', format: 'pem' }) }, 'secret', /publicKey/);
    refused({ publicKey: privateKey }, 'publicKey', /private key/);
    refused({ publicKey: '-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----' }, 'publicKey', /not a PEM/);
    assert.ok(jwtAuth({ publicKey: createPublicKey(publicKey.export({ type: 'spki', format: 'pem' })) }));
  });

  it('refuses URLs that are not http(s), a bad audience, negative numbers, a realm a header cannot carry, a bad scope', () => {
    refused({ jwksUri: 'file:///etc/passwd' }, 'jwksUri', /not an http\(s\) URL/);
    refused({ issuer: 'not a url' }, 'issuer', /not an http\(s\) URL/);
    refused({ secret: SECRET, audience: [] }, 'audience', /non-empty/);
    refused({ secret: SECRET, clockTolerance: -1 }, 'clockTolerance', /from 0/);
    refused({ secret: SECRET, realm: 'a\r\nSet-Cookie: x=1' }, 'realm', /printable ASCII/);
    refused({ secret: SECRET, scopes: ['two words'] }, 'scopes', /not a scope name/);
  });

  it('verifies with a KeyObject, a JWK or a CryptoKey as well as a PEM', async () => {
    const keys = await rsaKeys();
    const signed = await token(keys.privateKey);
    assert.equal((await guarded(jwtAuth({ publicKey: createPublicKey(keys.pem) })).get('/me', bearer(signed))).status, 200);
    assert.equal((await guarded(jwtAuth({ publicKey: keys.jwk })).get('/me', bearer(signed))).status, 200);
    assert.equal((await guarded(jwtAuth({ publicKey: keys.publicKey })).get('/me', bearer(signed))).status, 200);
  });
});

describe('signToken', () => {
  it('mints an HS256 token jwtAuth accepts, with scope, sub, iss, aud and an expiry', async () => {
    const before = Math.floor(Date.now() / 1000);
    const minted = await signToken({ secret: SECRET, scopes: ['tasks:write', 'tasks:read'], subject: 'ada', issuer: 'me', audience: 'tasks', claims: { tenant: 'acme' } });
    assert.deepEqual(decodeProtectedHeader(minted), { alg: 'HS256', typ: 'JWT' });
    const claims = decodeJwt(minted);
    assert.deepEqual({ ...claims, iat: undefined, exp: undefined }, { scope: 'tasks:write tasks:read', sub: 'ada', iss: 'me', aud: 'tasks', tenant: 'acme', iat: undefined, exp: undefined });
    assert.ok(claims.exp! - claims.iat! === 3600 && claims.iat! >= before);
    const client = guarded(jwtAuth({ secret: SECRET, issuer: 'me', audience: 'tasks' }));
    assert.equal((await client.get('/me', bearer(minted))).json().user.sub, 'ada');
  });

  it('takes expiresIn in seconds or as a span, and refuses a short secret or a bad span', async () => {
    assert.equal(((t) => t.exp! - t.iat!)(decodeJwt(await signToken({ secret: SECRET, expiresIn: 90 }))), 90);
    assert.equal(((t) => t.exp! - t.iat!)(decodeJwt(await signToken({ secret: SECRET, expiresIn: '2h' }))), 7200);
    await assert.rejects(signToken({ secret: 'short' }), (error: TrellisError) => error.code === 'TRELLIS_ERR_AUTH_OPTION' && error.details.option === 'secret');
    await assert.rejects(signToken({ secret: SECRET, expiresIn: 'soon' }), (error: TrellisError) => error.details.option === 'expiresIn');
    await assert.rejects(signToken({ secret: SECRET, expiresIn: -5 }), (error: TrellisError) => error.details.option === 'expiresIn');
  });
});

describe('what loads jose', () => {
  // Whether a fresh process asked for jose while running `script`.
  const loadsJose = (script: string): boolean => {
    const probe = `const M = require('node:module'); const load = M._load; let asked = false; M._load = function (request, ...rest) { if (request === 'jose') asked = true; return load.call(this, request, ...rest); }; ${script}; process.stdout.write(String(asked))`;
    return JSON.parse(execFileSync(process.execPath, ['--require', './register.js', '-e', probe], { cwd: join(__dirname, '..', '..'), encoding: 'utf8' }));
  };

  it('trellis, trellis/param, trellis/plugins and trellis/testing never do; trellis/auth does', () => {
    assert.equal(loadsJose("require('trellis'); require('trellis/param'); require('trellis/plugins'); require('trellis/testing'); require('trellis/security')"), false);
    assert.equal(loadsJose("require('trellis/auth')"), true);
  });
});
