#!/usr/bin/env node
'use strict';
// One JWT verification, in one process, without any cache: the same token (issuer, audience and expiry checked,
// one algorithm allowed) verified by
//   jose jwtVerify           what jwtAuth ran before (WebCrypto, a promise per token), the key imported once
//   jwtAuth's verifier       framework/auth/token-verifier.ts: fast-jwt for a token jose would accept, jose for the rest
//   fast-jwt alone           createVerifier as @fastify/jwt makes it (the verifier under Fastify's jwtVerify)
// and, for what a refusal costs, an expired token through jose alone (before) and through jwtAuth's verifier
// (fast-jwt refuses it, then jose says why). HS256 (a 32-byte secret) and RS256 (a 2048-bit key, SPKI PEM). Blocks of N verifications,
// the variants interleaved, each awaited one after the other (the async ones pay their promise); the minimum
// and median of the blocks, in µs per verification.
//
//   taskset -c 0 node bench/micro/jwt-verify.js [rounds, default 20]
require('../../register.js');
const crypto = require('node:crypto');
const { SignJWT, exportSPKI, generateKeyPair, importSPKI, jwtVerify } = require('jose');
const { createVerifier } = require('fast-jwt');
const { jwtSettings } = require('../../framework/auth/options');
const { keyResolver } = require('../../framework/auth/keys');
const { tokenVerifier } = require('../../framework/auth/token-verifier');

const ISSUER = 'https://issuer.bench.test';
const AUDIENCE = 'bench-api';
const N = { HS256: 4000, RS256: 1000 };

/** @param {string} alg @param {Uint8Array | import('jose').CryptoKey} key @param {string | number} [expires] */
function sign(alg, key, expires = '1d') {
  return new SignJWT({ scope: 'tasks:read' }).setProtectedHeader({ alg, typ: 'JWT' }).setSubject('user-1').setIssuer(ISSUER).setAudience(AUDIENCE).setIssuedAt().setExpirationTime(expires).sign(key);
}

async function variants() {
  const secret = crypto.randomBytes(32).toString('base64url');
  const secretBytes = new TextEncoder().encode(secret);
  const pair = await generateKeyPair('RS256', { extractable: true });
  const pem = await exportSPKI(pair.publicKey);
  const past = Math.floor(Date.now() / 1000) - 600;
  const cases = {
    HS256: { option: { secret }, joseKey: secretBytes, fastKey: secret, token: await sign('HS256', secretBytes), expired: await sign('HS256', secretBytes, past) },
    RS256: { option: { publicKey: pem }, joseKey: await importSPKI(pem, 'RS256'), fastKey: pem, token: await sign('RS256', pair.privateKey), expired: await sign('RS256', pair.privateKey, past) },
  };
  /** @type {Record<string, { n: number, run: () => unknown }>} */
  const all = {};
  for (const [alg, c] of Object.entries(cases)) {
    const settings = jwtSettings({ ...c.option, algorithms: [alg], issuer: ISSUER, audience: AUDIENCE, cache: false });
    const verify = tokenVerifier(settings, keyResolver(settings));
    const fast = createVerifier({ key: c.fastKey, algorithms: [/** @type {'HS256'} */ (alg)], allowedIss: ISSUER, allowedAud: AUDIENCE });
    const options = { algorithms: [alg], issuer: ISSUER, audience: AUDIENCE };
    const n = N[/** @type {'HS256'} */ (alg)];
    all[`${alg} jose jwtVerify`] = { n, run: () => jwtVerify(c.token, c.joseKey, options) };
    all[`${alg} jwtAuth's verifier`] = { n, run: () => verify(c.token) };
    all[`${alg} fast-jwt alone`] = { n, run: () => fast(c.token) };
    all[`${alg} jose jwtVerify, expired token`] = { n: n / 4, run: () => jwtVerify(c.expired, c.joseKey, options).catch(() => undefined) };
    all[`${alg} jwtAuth's verifier, expired token`] = { n: n / 4, run: () => Promise.resolve(verify(c.expired)).catch(() => undefined) };
    // Each must answer as it should before it is timed.
    if ((await verify(c.token)).sub !== 'user-1' || fast(c.token).sub !== 'user-1') throw new Error(`${alg}: a verifier refused the valid token`);
    if (!(verify(c.token) instanceof Object) || verify(c.token) instanceof Promise) throw new Error(`${alg}: jwtAuth's verifier did not answer at once`);
  }
  return all;
}

/** µs per verification over a block, awaiting only what returns a promise. */
async function block({ n, run }) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const result = run();
    if (result instanceof Promise) await result;
  }
  return Number(process.hrtime.bigint() - started) / 1000 / n;
}

async function main() {
  const all = await variants();
  const rounds = Number(process.argv[2] ?? 20);
  /** @type {Record<string, number[]>} */
  const results = {};
  for (const variant of Object.values(all)) await block(variant); // warm-up
  for (let round = 0; round < rounds; round++) for (const [name, variant] of Object.entries(all)) (results[name] ??= []).push(await block(variant));
  const at = (list, q) => [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) * q)];
  for (const [name, list] of Object.entries(results)) {
    console.log(`${name.padEnd(42)} µs: min ${Math.min(...list).toFixed(1).padStart(6)}  median ${at(list, 0.5).toFixed(1).padStart(6)}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
