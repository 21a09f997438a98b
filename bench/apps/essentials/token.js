'use strict';
// The bearer tokens of the guarded echo (GUARDED_PATH): compact JWS, HS256 with ./config.js's SECRET, signed here
// with node:crypto's HMAC once per process that loads this (the harness; the apps only verify). Each carries sub,
// scope, iat and an exp ten years on, so no cell ever sees one expire.
const { createHmac } = require('node:crypto');
const { ECHO_SCOPE, SECRET } = require('./config');

const YEARS_10 = 10 * 365 * 24 * 3600;
const part = (json) => Buffer.from(JSON.stringify(json)).toString('base64url');

/** A compact JWS of `claims`, HS256 with `secret`. */
function signHs256(secret, claims) {
  const signed = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`;
}

/** A token granting `scope` (space-separated scopes), valid for ten years from `now` (seconds). */
function tokenOf(scope, now = Math.floor(Date.now() / 1000)) {
  return signHs256(SECRET, { sub: 'bench', scope, iat: now, exp: now + YEARS_10 });
}

/** The measured token: the echo's scope. */
const TOKEN = tokenOf(ECHO_SCOPE);
/** A valid token without the echo's scope: upgraded, but every echo refused (the check that the scope is checked). */
const UNSCOPED_TOKEN = tokenOf('tasks:read');

module.exports = { signHs256, tokenOf, TOKEN, UNSCOPED_TOKEN };
