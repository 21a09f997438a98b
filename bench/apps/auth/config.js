'use strict';
// What the two JWT apps (trellis-jwt.ts, fastify-jwt.js) verify, from the environment bench/auth.js gives them:
// one algorithm allowed (JWT_ALG, HS256 or RS256), its key (JWT_SECRET, or JWT_PUBLIC_KEY as SPKI PEM), and the
// issuer and audience every token must carry. Both answer GET /tasks/:id with the task and the token's subject.

const ISSUER = 'https://issuer.bench.test';
const AUDIENCE = 'bench-api';

/** The verification settings of this process: `{ algorithm, secret?, publicKey? }`; throws on a missing key. */
function jwtSettings(env = process.env) {
  const algorithm = env.JWT_ALG ?? 'HS256';
  if (algorithm === 'HS256' && env.JWT_SECRET) return { algorithm, secret: env.JWT_SECRET };
  if (algorithm === 'RS256' && env.JWT_PUBLIC_KEY) return { algorithm, publicKey: env.JWT_PUBLIC_KEY };
  throw new Error(`JWT_ALG=${algorithm} needs ${algorithm === 'RS256' ? 'JWT_PUBLIC_KEY' : 'JWT_SECRET'} (HS256 or RS256 only)`);
}

/**
 * Whether the apps keep the tokens they verified (JWT_CACHE=on, `node bench/auth.js --cache on`): trellis's jwtAuth
 * does by default and @fastify/jwt does with `verify.cache` (fast-jwt's cache); off, each verifies every request.
 */
function cacheOn(env = process.env) {
  return env.JWT_CACHE === 'on';
}

/** The body both apps answer: the task and who asked for it. */
function taskOf(task, user) {
  return { ...task, user: user.sub };
}

module.exports = { ISSUER, AUDIENCE, cacheOn, jwtSettings, taskOf };
