import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHmac, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { importJWK, importSPKI, jwtVerify } from 'jose';
import { fastVerifier } from '../auth/fast-verify';
import { keyResolver } from '../auth/keys';
import { jwtSettings, type JwtAuthOptions } from '../auth/options';
import { tokenVerifier } from '../auth/token-verifier';
import { SECRET } from './fixtures/auth-tokens';

// fast-jwt verifies, synchronously, every token jose would accept; these check it is the one that answers (a
// verification that silently went back to jose would pass every refusal test and lose the speed), and that its
// claims are jose's.

const b64 = (part: unknown) => Buffer.from(JSON.stringify(part)).toString('base64url');
const claims = () => ({ sub: 'ada', iss: 'https://login.example.com', aud: 'tasks', exp: Math.floor(Date.now() / 1000) + 600, roles: ['admin'] });

function jws(alg: string, signer: (input: Buffer) => Buffer): string {
  const input = `${b64({ alg, typ: 'JWT' })}.${b64(claims())}`;
  return `${input}.${signer(Buffer.from(input)).toString('base64url')}`;
}

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const ed = generateKeyPairSync('ed25519');
const pem = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }) as string;

const CASES: Array<[string, JwtAuthOptions, string]> = [
  ['HS256 with a secret', { secret: SECRET }, jws('HS256', (input) => createHmac('sha256', SECRET).update(input).digest())],
  ['HS512 with a secret', { secret: SECRET, algorithms: ['HS512'] }, jws('HS512', (input) => createHmac('sha512', SECRET).update(input).digest())],
  ['RS256 with a PEM', { publicKey: pem(rsa.publicKey) }, jws('RS256', (input) => sign('sha256', input, rsa.privateKey))],
  ['PS384 with a KeyObject', { publicKey: rsa.publicKey, algorithms: ['PS384'] }, jws('PS384', (input) => sign('sha384', input, { key: rsa.privateKey, padding: 6, saltLength: 48 }))],
  ['ES384 with a JWK', { publicKey: ec.publicKey.export({ format: 'jwk' }) as JwtAuthOptions['publicKey'], algorithms: ['ES384'] }, jws('ES384', (input) => sign('sha384', input, { key: ec.privateKey, dsaEncoding: 'ieee-p1363' }))],
  ['EdDSA with a PEM', { publicKey: pem(ed.publicKey), algorithms: ['EdDSA'] }, jws('EdDSA', (input) => sign(null, input, ed.privateKey))],
];

describe("jwtAuth's verifier: fast-jwt answers at once for what jose accepts", () => {
  for (const [what, options, token] of CASES) {
    it(`${what}: the claims at once, the same as jose's`, async () => {
      const settings = jwtSettings({ ...options, issuer: 'https://login.example.com', audience: 'tasks' });
      const verify = tokenVerifier(settings, keyResolver(settings));
      const answer = verify(token);
      assert.ok(!(answer instanceof Promise), 'answered at once, by fast-jwt');
      const { payload } = await jwtVerify(token, keyResolver(settings).getKey, { algorithms: settings.algorithms, issuer: settings.issuer, audience: settings.audience });
      assert.deepEqual(answer, payload);
    });
  }

  it('a CryptoKey bound to RS256 answers at once for RS256; for a PS256 token it leaves jose to refuse', async () => {
    const key = await importSPKI(pem(rsa.publicKey), 'RS256');
    const settings = jwtSettings({ publicKey: key, algorithms: ['RS256', 'PS256'] });
    const verify = tokenVerifier(settings, keyResolver(settings));
    assert.ok(!(verify(jws('RS256', (input) => sign('sha256', input, rsa.privateKey))) instanceof Promise));
    const ps256 = verify(jws('PS256', (input) => sign('sha256', input, { key: rsa.privateKey, padding: 6, saltLength: 32 })));
    assert.ok(ps256 instanceof Promise, 'jose decides');
    await assert.rejects(ps256);
  });

  it('at the very millisecond of exp, which fast-jwt still accepts, jose counts whole seconds and has it expired: left to jose', () => {
    const settings = jwtSettings({ secret: SECRET });
    const verify = fastVerifier(new TextEncoder().encode(SECRET), settings)!;
    const exp = Math.floor(Date.now() / 1000) + 100;
    const input = `${b64({ alg: 'HS256' })}.${b64({ sub: 'ada', exp })}`;
    const token = `${input}.${createHmac('sha256', SECRET).update(input).digest('base64url')}`;
    const realNow = Date.now;
    try {
      Date.now = () => (exp - 1) * 1000 + 999;
      assert.equal(verify(token)?.sub, 'ada');
      Date.now = () => exp * 1000;
      assert.equal(verify(token), undefined);
    } finally {
      Date.now = realNow;
    }
  });

  it('a refused token goes to jose, which rejects with its own error', async () => {
    const settings = jwtSettings({ secret: SECRET });
    const verify = tokenVerifier(settings, keyResolver(settings));
    const forged = jws('HS256', (input) => createHmac('sha256', 'z'.repeat(32)).update(input).digest());
    const answer = verify(forged);
    assert.ok(answer instanceof Promise);
    await assert.rejects(answer, { code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
  });

  it('the keys jose picks from a JWKS (CryptoKeys made for one algorithm) get a fast-jwt verifier; one under 2048 bits does not', async () => {
    const settings = jwtSettings({ jwksUri: 'https://login.example.com/jwks.json', algorithms: ['RS256', 'ES384', 'EdDSA'] });
    const jwk = (key: KeyObject) => key.export({ format: 'jwk' });
    assert.ok(fastVerifier(await importJWK(jwk(rsa.publicKey), 'RS256'), settings));
    assert.ok(fastVerifier(await importJWK(jwk(ec.publicKey), 'ES384'), settings));
    assert.ok(fastVerifier(await importJWK(jwk(ed.publicKey), 'EdDSA'), settings));
    assert.equal(fastVerifier(await importJWK(jwk(rsa.publicKey), 'PS256'), settings), undefined, 'PS256 is not allowed');
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 });
    assert.equal(fastVerifier(await importJWK(jwk(weak.publicKey), 'RS256'), settings), undefined);
    assert.equal(fastVerifier(createPublicKey(pem(weak.publicKey)), settings), undefined);
  });
});

describe('what loads fast-jwt', () => {
  const loads = (script: string): boolean => {
    const probe = `const M = require('node:module'); const load = M._load; let asked = false; M._load = function (request, ...rest) { if (request === 'fast-jwt') asked = true; return load.call(this, request, ...rest); }; ${script}; process.stdout.write(String(asked))`;
    return JSON.parse(execFileSync(process.execPath, ['--require', './register.js', '-e', probe], { cwd: join(__dirname, '..', '..'), encoding: 'utf8' }));
  };

  it('trellis, trellis/param, trellis/plugins, trellis/testing and trellis/security never do; trellis/auth does', () => {
    assert.equal(loads("require('trellis'); require('trellis/param'); require('trellis/plugins'); require('trellis/testing'); require('trellis/security')"), false);
    assert.equal(loads("require('trellis/auth')"), true);
  });
});
