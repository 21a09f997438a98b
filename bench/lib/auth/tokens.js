'use strict';
// The keys and tokens of one bench/auth.js run, made with jose (trellis's own JWT library): an HS256 secret and an
// RS256 key pair generated once per run, the environment that tells a JWT app (apps/auth/) which one it verifies,
// the token wrk sends, and the tokens each app must refuse.
const crypto = require('node:crypto');
const { SignJWT, UnsecuredJWT, exportSPKI, generateKeyPair } = require('jose');
const { AUDIENCE, ISSUER } = require('../../apps/auth/config');

/** @typedef {{ secret: string, privateKey: import('jose').CryptoKey, publicKeyPem: string }} AuthKeys */
/** @typedef {'HS256' | 'RS256'} Algorithm */

/** @returns {Promise<AuthKeys>} */
async function authKeys() {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return { secret: crypto.randomBytes(32).toString('base64url'), privateKey, publicKeyPem: await exportSPKI(publicKey) };
}

/**
 * The environment of an app verifying `algorithm` with the run's key.
 * @param {AuthKeys} keys
 * @param {Algorithm} algorithm
 * @returns {Record<string, string>}
 */
function serverEnv(keys, algorithm) {
  return algorithm === 'HS256' ? { JWT_ALG: algorithm, JWT_SECRET: keys.secret } : { JWT_ALG: algorithm, JWT_PUBLIC_KEY: keys.publicKeyPem };
}

const encode = (text) => new TextEncoder().encode(text);

/**
 * A token for `sub` signed as `algorithm` with the run's key (the claims every app checks: issuer, audience,
 * expiry in a day); `changes` replaces claims, `key` the signing key (a wrong one, for refusals).
 * @param {AuthKeys} keys
 * @param {Algorithm} algorithm
 * @param {{ issuer?: string, audience?: string, expiresAt?: number | string, key?: import('jose').CryptoKey | Uint8Array }} [changes]
 */
function mint(keys, algorithm, changes = {}) {
  const { issuer = ISSUER, audience = AUDIENCE, expiresAt = '1d' } = changes;
  const key = changes.key ?? (algorithm === 'HS256' ? encode(keys.secret) : keys.privateKey);
  return new SignJWT({ scope: 'tasks:read' })
    .setProtectedHeader({ alg: algorithm, typ: 'JWT' })
    .setSubject('user-1')
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(expiresAt)
    .sign(key);
}

/**
 * Tokens an app verifying `algorithm` must refuse with 401, by what is wrong with them.
 * @param {AuthKeys} keys
 * @param {Algorithm} algorithm
 * @returns {Promise<Record<string, string>>}
 */
async function refusedTokens(keys, algorithm) {
  const now = Math.floor(Date.now() / 1000);
  const other = await authKeys();
  return {
    expired: await mint(keys, algorithm, { expiresAt: now - 600 }),
    // RS256 app: HS256 signed with its public key's PEM as the secret (the algorithm confusion); HS256 app: RS256.
    'wrong algorithm': algorithm === 'RS256' ? await mint(keys, 'HS256', { key: encode(keys.publicKeyPem) }) : await mint(keys, 'RS256'),
    'alg none': new UnsecuredJWT({ scope: 'tasks:read' }).setSubject('user-1').setIssuer(ISSUER).setAudience(AUDIENCE).setExpirationTime('1d').encode(),
    'bad signature': await mint(other, algorithm),
    'wrong issuer': await mint(keys, algorithm, { issuer: 'https://elsewhere.test' }),
    'wrong audience': await mint(keys, algorithm, { audience: 'other-api' }),
    malformed: 'not.a.jwt',
  };
}

/**
 * The run's tokens: a valid one per algorithm (wrk sends it) and those each algorithm's apps must refuse.
 * @param {AuthKeys} keys
 * @param {readonly Algorithm[]} algorithms
 */
async function runTokens(keys, algorithms) {
  /** @type {Record<string, string>} */
  const tokens = {};
  /** @type {Record<string, Record<string, string>>} */
  const refused = {};
  for (const a of algorithms) [tokens[a], refused[a]] = [await mint(keys, a), await refusedTokens(keys, a)];
  return { tokens, refused };
}

module.exports = { authKeys, serverEnv, mint, refusedTokens, runTokens };
