import assert from 'node:assert/strict';
import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { describe, it } from 'node:test';
import { jwtAuth } from '../auth';
import type { JwtAuthOptions } from '../auth/options';
import { bearer, guarded, refusal, SECRET } from './fixtures/auth-tokens';

// The tokens a verifier is most likely to get wrong, each built by hand (header, payload and signature as given,
// signed with node:crypto) so nothing a library would refuse to sign is out of reach. Every case answers as jose's
// jwtVerify answered it before fast-jwt took over the signatures: the refusals are the same sentences.

const REFUSED = {
  malformed: 'The token is malformed',
  algorithm: 'The token is signed with an algorithm this API does not accept',
  signature: 'The token signature is invalid',
  expired: 'The token has expired',
  notYetValid: 'The token is not valid yet',
  issuer: 'The token issuer is not accepted',
  audience: 'The token audience is not accepted',
  claims: 'The token claims are invalid',
} as const;

const b64 = (part: unknown) => Buffer.from(typeof part === 'string' ? part : JSON.stringify(part)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);
const later = () => ({ sub: 'ada', exp: now() + 600 });

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const otherRsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ed = generateKeyPairSync('ed25519');
const pem = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }) as string;

type Signer = (input: string) => Buffer;
const hmac = (secret: string | Buffer, bits = 256): Signer => (input) => createHmac(`sha${bits}`, secret).update(input).digest();
const rsaSha = (key: KeyObject, bits = 256): Signer => (input) => sign(`sha${bits}`, Buffer.from(input), key);
const pss = (key: KeyObject, bits = 256): Signer => (input) => sign(`sha${bits}`, Buffer.from(input), { key, padding: 6, saltLength: bits / 8 });
const ecdsa = (key: KeyObject, dsaEncoding: 'ieee-p1363' | 'der' = 'ieee-p1363'): Signer => (input) => sign('sha256', Buffer.from(input), { key, dsaEncoding });
const eddsa = (key: KeyObject): Signer => (input) => sign(null, Buffer.from(input), key);

/** A compact JWS of `header` and `payload` (objects, or the raw text of a part), signed by `signer` (none: an empty signature). */
function jws(header: unknown, payload: unknown, signer?: Signer): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${signer ? signer(input).toString('base64url') : ''}`;
}

/** The same, with parts given already encoded (to send what base64url cannot say). */
function raw(header: string, payload: string, signer?: Signer): string {
  const input = `${header}.${payload}`;
  return `${input}.${signer ? signer(input).toString('base64url') : ''}`;
}

const hs256 = (header: object, payload: unknown = later()) => jws({ alg: 'HS256', typ: 'JWT', ...header }, payload, hmac(SECRET));

/** Sends `token` to a guard made of `options` and checks the answer: 200, or 401 with `refused`'s sentence. */
async function expect(options: JwtAuthOptions, token: string, expected: keyof typeof REFUSED | 200, label = token.slice(0, 60)) {
  const response = await guarded(jwtAuth({ cache: false, ...options })).get('/me', bearer(token));
  if (expected === 200) {
    assert.equal(response.status, 200, `${label}: ${response.body}`);
    return;
  }
  assert.deepEqual(
    refusal(response),
    { status: 401, challenge: `Bearer error="invalid_token", error_description="${REFUSED[expected]}"`, body: { error: REFUSED[expected] } },
    label,
  );
}

describe('jwtAuth: alg none and algorithms outside the allow-list', () => {
  it('refuses alg none, with or without a signature, in any case', async () => {
    await expect({ secret: SECRET }, jws({ alg: 'none' }, later()), 'algorithm');
    await expect({ secret: SECRET }, jws({ alg: 'none' }, later(), hmac(SECRET)), 'algorithm');
    await expect({ secret: SECRET }, jws({ alg: 'None' }, later()), 'algorithm');
    await expect({ publicKey: pem(rsa.publicKey) }, jws({ alg: 'none' }, later()), 'algorithm');
  });

  it('refuses a header without alg, or whose alg is not a string, as malformed', async () => {
    await expect({ secret: SECRET }, jws({ typ: 'JWT' }, later(), hmac(SECRET)), 'malformed');
    await expect({ secret: SECRET }, jws({ alg: 256 }, later(), hmac(SECRET)), 'malformed');
    await expect({ secret: SECRET }, jws({ alg: '' }, later(), hmac(SECRET)), 'malformed');
    await expect({ secret: SECRET }, jws({ alg: ['HS256'] }, later(), hmac(SECRET)), 'malformed');
  });

  it('refuses a token signed with another algorithm than those allowed, even with the right key', async () => {
    await expect({ secret: SECRET }, jws({ alg: 'HS384' }, later(), hmac(SECRET, 384)), 'algorithm');
    await expect({ secret: SECRET, algorithms: ['HS256', 'HS384'] }, jws({ alg: 'HS384' }, later(), hmac(SECRET, 384)), 200);
    await expect({ secret: SECRET }, jws({ alg: 'RS256' }, later(), rsaSha(rsa.privateKey)), 'algorithm');
    await expect({ publicKey: pem(rsa.publicKey) }, jws({ alg: 'PS256' }, later(), pss(rsa.privateKey)), 'algorithm');
    await expect({ publicKey: pem(rsa.publicKey), algorithms: ['PS256'] }, jws({ alg: 'PS256' }, later(), pss(rsa.privateKey)), 200);
    await expect({ publicKey: pem(rsa.publicKey) }, jws({ alg: 'RS512' }, later(), rsaSha(rsa.privateKey, 512)), 'algorithm');
    await expect({ publicKey: pem(ec.publicKey), algorithms: ['ES256'] }, jws({ alg: 'RS256' }, later(), rsaSha(rsa.privateKey)), 'algorithm');
  });

  it('an algorithm the key cannot do, though allowed, is refused (an EC key and an RS256 token)', async () => {
    await expect({ publicKey: pem(ec.publicKey), algorithms: ['ES256', 'RS256'] }, jws({ alg: 'RS256' }, later(), rsaSha(rsa.privateKey)), 'algorithm');
  });
});

describe('jwtAuth: algorithm confusion (HS256 made with the public key as the HMAC secret)', () => {
  const jwk = JSON.stringify(rsa.publicKey.export({ format: 'jwk' }));
  const der = rsa.publicKey.export({ type: 'spki', format: 'der' });
  for (const [what, secret] of [
    ['the PEM', pem(rsa.publicKey)],
    ['the PEM without its last newline', pem(rsa.publicKey).trimEnd()],
    ['the JWK as JSON', jwk],
    ['the DER bytes', der],
  ] as const) {
    it(`refuses it with ${what} as the secret, whichever form the guard was given the key in`, async () => {
      const forged = jws({ alg: 'HS256', typ: 'JWT' }, { sub: 'mallory', scope: 'admin', exp: now() + 600 }, hmac(secret));
      await expect({ publicKey: pem(rsa.publicKey) }, forged, 'algorithm');
      await expect({ publicKey: rsa.publicKey }, forged, 'algorithm');
      await expect({ publicKey: JSON.parse(jwk) }, forged, 'algorithm');
      await expect({ publicKey: pem(rsa.publicKey), algorithms: ['RS256', 'PS256', 'ES256'] }, forged, 'algorithm');
    });
  }
});

describe('jwtAuth: each asymmetric family, right and wrong', () => {
  it('RS256, PS256, ES256 and EdDSA (and Ed25519) from a PEM key pass; another key pair is a bad signature', async () => {
    await expect({ publicKey: pem(rsa.publicKey) }, jws({ alg: 'RS256' }, later(), rsaSha(rsa.privateKey)), 200);
    await expect({ publicKey: pem(rsa.publicKey) }, jws({ alg: 'RS256' }, later(), rsaSha(otherRsa.privateKey)), 'signature');
    await expect({ publicKey: pem(rsa.publicKey), algorithms: ['PS256'] }, jws({ alg: 'PS256' }, later(), pss(otherRsa.privateKey)), 'signature');
    await expect({ publicKey: pem(ec.publicKey), algorithms: ['ES256'] }, jws({ alg: 'ES256' }, later(), ecdsa(ec.privateKey)), 200);
    await expect({ publicKey: pem(ed.publicKey), algorithms: ['EdDSA'] }, jws({ alg: 'EdDSA' }, later(), eddsa(ed.privateKey)), 200);
    await expect({ publicKey: pem(ed.publicKey), algorithms: ['Ed25519'] }, jws({ alg: 'Ed25519' }, later(), eddsa(ed.privateKey)), 200);
    await expect({ publicKey: pem(ed.publicKey), algorithms: ['EdDSA'] }, jws({ alg: 'EdDSA' }, later(), eddsa(generateKeyPairSync('ed25519').privateKey)), 'signature');
  });

  it('an ES256 signature in DER (not the JWS r || s form) or cut short is a bad signature', async () => {
    const options = { publicKey: pem(ec.publicKey), algorithms: ['ES256'] };
    await expect(options, jws({ alg: 'ES256' }, later(), ecdsa(ec.privateKey, 'der')), 'signature');
    await expect(options, jws({ alg: 'ES256' }, later(), (input) => ecdsa(ec.privateKey)(input).subarray(0, 40)), 'signature');
  });

  it('a changed payload under an RS256 signature is a bad signature', async () => {
    const [head, , signature] = jws({ alg: 'RS256' }, { sub: 'ada', exp: now() + 600 }, rsaSha(rsa.privateKey)).split('.');
    await expect({ publicKey: pem(rsa.publicKey) }, `${head}.${b64({ sub: 'root', exp: now() + 600 })}.${signature}`, 'signature');
  });
});

describe('jwtAuth: keys jose cannot verify with are never accepted', () => {
  const UNAVAILABLE = 'The keys that verify tokens are unavailable; try again later';

  it('an RSA key under 2048 bits (jose refuses RS* and PS* with it)', async () => {
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const response = await guarded(jwtAuth({ publicKey: pem(weak.publicKey), cache: false })).get('/me', bearer(jws({ alg: 'RS256' }, later(), rsaSha(weak.privateKey))));
    assert.deepEqual([response.status, response.json().error], [401, UNAVAILABLE]);
  });

  it('a private JWK given as the public key', async () => {
    const jwk = rsa.privateKey.export({ format: 'jwk' }) as JwtAuthOptions['publicKey'];
    const response = await guarded(jwtAuth({ publicKey: jwk, cache: false })).get('/me', bearer(jws({ alg: 'RS256' }, later(), rsaSha(rsa.privateKey))));
    assert.deepEqual([response.status, response.json().error], [401, UNAVAILABLE]);
  });

  it('a JWK whose key_ops leave out verify; one whose use says enc passes, as jose imports it (the same as before)', async () => {
    const jwk = rsa.publicKey.export({ format: 'jwk' });
    const rs256 = jws({ alg: 'RS256' }, later(), rsaSha(rsa.privateKey));
    const response = await guarded(jwtAuth({ publicKey: { ...jwk, key_ops: ['encrypt'] } as JwtAuthOptions['publicKey'], cache: false })).get('/me', bearer(rs256));
    assert.deepEqual([response.status, response.json().error], [401, UNAVAILABLE]);
    await expect({ publicKey: { ...jwk, use: 'enc' } as JwtAuthOptions['publicKey'] }, rs256, 200);
    await expect({ publicKey: { ...jwk, alg: 'RS256' } as JwtAuthOptions['publicKey'] }, rs256, 200);
  });
});

describe('jwtAuth: exp and nbf at their edges, with and without clockTolerance', () => {
  for (const tolerance of [0, 30]) {
    it(`clockTolerance ${tolerance}: exp is refused from exp - tolerance on, nbf accepted up to nbf + tolerance`, async () => {
      const options = { secret: SECRET, ...(tolerance ? { clockTolerance: tolerance } : {}) };
      await expect(options, hs256({}, { exp: now() - tolerance }), 'expired', 'exp = now - tolerance');
      await expect(options, hs256({}, { exp: now() - tolerance - 5 }), 'expired', 'exp before now - tolerance');
      await expect(options, hs256({}, { exp: now() - tolerance + 3 }), 200, 'exp just after now - tolerance');
      await expect(options, hs256({}, { nbf: now() + tolerance }), 200, 'nbf = now + tolerance');
      await expect(options, hs256({}, { nbf: now() + tolerance + 3 }), 'notYetValid', 'nbf after now + tolerance');
    });
  }

  it('a fractional nbf within the current second is not valid yet (jose counts whole seconds)', async () => {
    // Late in a second, past nbf in milliseconds (fast-jwt's clock) but not in whole seconds (jose's).
    while (Date.now() % 1000 < 550 || Date.now() % 1000 > 850) await new Promise((resolve) => setTimeout(resolve, 20));
    const second = now();
    await expect({ secret: SECRET }, hs256({}, { nbf: second + 0.5, exp: second + 600 }), 'notYetValid');
  });

  it('a token without exp passes (exp is checked when present); exp, nbf or iat of another type are invalid claims', async () => {
    await expect({ secret: SECRET }, hs256({}, { sub: 'ada' }), 200);
    await expect({ secret: SECRET }, hs256({}, { exp: String(now() + 600) }), 'claims');
    await expect({ secret: SECRET }, hs256({}, { exp: now() + 600, nbf: null }), 'claims');
    await expect({ secret: SECRET }, hs256({}, { exp: now() + 600, iat: 'today' }), 'claims');
    await expect({ secret: SECRET }, hs256({}, { exp: now() + 600, iat: null }), 'claims');
  });
});

describe('jwtAuth: issuer and audience of odd shapes', () => {
  it('iss must be the issuer itself: a list holding it, null or a number is not', async () => {
    const options = { secret: SECRET, issuer: 'https://login.example.com' };
    await expect(options, hs256({}, { ...later(), iss: 'https://login.example.com' }), 200);
    await expect(options, hs256({}, { ...later(), iss: ['https://login.example.com'] }), 'issuer');
    await expect(options, hs256({}, { ...later(), iss: null }), 'issuer');
    await expect(options, hs256({}, { ...later(), iss: 7 }), 'issuer');
  });

  it('aud: a list holding an accepted audience passes, even beside a member that is not a string; missing or a number is refused', async () => {
    const options = { secret: SECRET, audience: 'tasks' };
    await expect(options, hs256({}, { ...later(), aud: ['other', 'tasks'] }), 200);
    await expect(options, hs256({}, { ...later(), aud: ['tasks', 5] }), 200);
    await expect(options, hs256({}, later()), 'audience');
    await expect(options, hs256({}, { ...later(), aud: 5 }), 'audience');
    await expect(options, hs256({}, { ...later(), aud: [] }), 'audience');
  });
});

describe('jwtAuth: crit headers', () => {
  it('refuses an extension it does not know, listed or missing; crit that is not a list of names is malformed', async () => {
    await expect({ secret: SECRET }, hs256({ crit: ['exp'], exp: now() + 600 }), 'algorithm');
    await expect({ secret: SECRET }, hs256({ crit: ['https://example.com/ext'], 'https://example.com/ext': true }), 'algorithm');
    await expect({ secret: SECRET }, hs256({ crit: ['x'] }), 'algorithm');
    await expect({ secret: SECRET }, hs256({ crit: [] }), 'malformed');
    await expect({ secret: SECRET }, hs256({ crit: 'x', x: 1 }), 'malformed');
    await expect({ secret: SECRET }, hs256({ crit: [''] }), 'malformed');
    for (const crit of [null, false, 0, '']) await expect({ secret: SECRET }, hs256({ crit }), 'malformed', `crit: ${JSON.stringify(crit)}`);
  });

  it('b64 (the one extension JWS defines) listed with true passes as it did; with false a JWT is malformed', async () => {
    await expect({ secret: SECRET }, hs256({ crit: ['b64'], b64: true }), 200);
    await expect({ secret: SECRET }, hs256({ crit: ['b64'], b64: 'yes' }), 'malformed');
    const header = b64({ alg: 'HS256', crit: ['b64'], b64: false });
    const payload = JSON.stringify(later());
    await expect({ secret: SECRET }, `${header}.${payload}.${hmac(SECRET)(`${header}.${payload}`).toString('base64url')}`, 'malformed');
  });
});

describe('jwtAuth: malformed parts', () => {
  const signed = hs256({});
  const [head, body, signature] = signed.split('.');

  it('refuses two parts, four parts, empty parts (an empty signature is a bad one)', async () => {
    for (const token of [`${head}.${body}`, `${signed}.${signature}`, '..', `.${body}.${signature}`]) {
      await expect({ secret: SECRET }, token, 'malformed', token);
    }
    await expect({ secret: SECRET }, `${head}.${body}.`, 'signature');
    await expect({ secret: SECRET }, `${head}..${signature}`, 'signature');
  });

  it('refuses a header that is not base64url of a JSON object', async () => {
    for (const header of [b64('[]'), b64('null'), b64('"HS256"'), b64('{"alg":"HS256"'), `${head}=`, head.replace(/.$/, '+'), '%%%']) {
      await expect({ secret: SECRET }, raw(header, body, hmac(SECRET)), 'malformed', header);
    }
  });

  it('refuses a signed payload that is not base64url of a JSON object', async () => {
    for (const payload of [b64('[1]'), b64('null'), b64('"ada"'), b64('{"sub":'), b64('not json'), `${body}*`]) {
      await expect({ secret: SECRET }, raw(head, payload, hmac(SECRET)), 'malformed', payload);
    }
  });

  it('a payload that is not JSON under a wrong signature is a bad signature (the signature is checked first)', async () => {
    await expect({ secret: SECRET }, raw(head, b64('not json'), hmac('z'.repeat(32))), 'signature');
  });

  it('a signature that is not base64url is malformed; one of the wrong length is a bad signature', async () => {
    await expect({ secret: SECRET }, `${head}.${body}.***`, 'malformed');
    await expect({ secret: SECRET }, `${head}.${body}.${signature.slice(0, -2)}`, 'malformed', 'a length base64 cannot have');
    await expect({ secret: SECRET }, `${head}.${body}.${signature}AAAA`, 'signature');
    // 64 characters carry HS384's 48 bytes; a 65th is one base64url cannot have (Buffer would drop it).
    const hs384 = jws({ alg: 'HS384' }, later(), hmac(SECRET, 384));
    await expect({ secret: SECRET, algorithms: ['HS384'] }, `${hs384}A`, 'malformed');
    await expect({ secret: SECRET, algorithms: ['HS384'] }, hs384, 200);
    await expect({ secret: SECRET }, `${head}.${body}.${signature.slice(0, -3)}`, 'signature');
  });

  it('a payload that is not UTF-8 is malformed, even signed', async () => {
    const notUtf8 = Buffer.concat([Buffer.from('{"sub":"'), Buffer.from([0xff, 0xfe]), Buffer.from(`","exp":${now() + 600}}`)]).toString('base64url');
    await expect({ secret: SECRET }, raw(head, notUtf8, hmac(SECRET)), 'malformed');
  });
});
