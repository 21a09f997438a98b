'use strict';
// The servers and requests of bench/auth.js: GET /tasks/1 with a token behind trellis's jwtAuth and behind
// Fastify's @fastify/jwt, each verifying HS256 and RS256 (apps/auth/); and trellis's GET /tasks/1 without and with
// one request-scoped dependency (apps/auth/trellis-depends.ts). Each request is measured on its pair alone.
const path = require('node:path');
const { isDeepStrictEqual } = require('node:util');
const { node, ts, versionOf } = require('../contenders');
const { serverEnv } = require('./tokens');

const TASK = { id: 1, title: 'Write the spec', description: '', completed: false };
const ALGORITHMS = /** @type {const} */ (['HS256', 'RS256']);

/** The pairs compared: `[trellis, Fastify]` per algorithm, then `[with the dependency, without]`. */
const JWT_PAIRS = /** @type {Array<[string, string]>} */ (ALGORITHMS.map((a) => [`trellis-${a.toLowerCase()}`, `fastify-${a.toLowerCase()}`]));
const DEPENDENCY_PAIR = /** @type {[string, string]} */ (['trellis-request-scoped', 'trellis-singleton']);

const bearer = (token) => ({ authorization: `Bearer ${token}` });

/**
 * The measured requests (wrk sends each one's `headers`), each with the contenders that serve it and its part of
 * the run (`group`: jwt or depends, for --only).
 * @param {Record<string, string>} tokens a valid token per algorithm
 */
function authEndpoints(tokens) {
  const get = { method: 'GET', path: '/tasks/1', status: [200] };
  return [
    ...ALGORITHMS.map((a, i) => ({ ...get, id: a.toLowerCase(), label: `GET /tasks/1, ${a} token`, headers: bearer(tokens[a]), contenders: JWT_PAIRS[i], group: 'jwt' })),
    { ...get, id: 'depends', label: 'GET /tasks/1', contenders: DEPENDENCY_PAIR, group: 'depends' },
  ];
}

/**
 * @param {import('./tokens').AuthKeys} keys
 * @param {Record<string, string>} tokens a valid token per algorithm
 * @param {Record<string, Record<string, string>>} refused per algorithm, tokens to refuse by what is wrong with them
 * @returns {import('../contenders').Contender[]}
 */
function authContenders(keys, tokens, refused) {
  const fastify = `Fastify ${versionOf('fastify')} + @fastify/jwt ${versionOf('@fastify/jwt')}`;
  const jwt = ALGORITHMS.flatMap((a) => {
    const shared = { env: serverEnv(keys, a), readyHeaders: bearer(tokens[a]), checks: jwtChecks(tokens[a], refused[a]) };
    return [
      { id: `trellis-${a.toLowerCase()}`, label: `trellis jwtAuth, ${a}`, command: ts(path.join('auth', 'trellis-jwt.ts')), ...shared },
      { id: `fastify-${a.toLowerCase()}`, label: `${fastify}, ${a}`, command: node(path.join('bench', 'apps', 'auth', 'fastify-jwt.js')), ...shared },
    ];
  });
  const depends = ts(path.join('auth', 'trellis-depends.ts'));
  const checks = [{ label: 'GET /tasks/1', path: '/tasks/1', status: [200], check: (json) => isDeepStrictEqual(json, TASK) }];
  return [
    ...jwt,
    { id: 'trellis-singleton', label: 'trellis, singleton service', command: depends, checks },
    { id: 'trellis-request-scoped', label: 'trellis, one request-scoped dependency', command: depends, env: { DEPENDENCY: '1' }, checks },
  ];
}

/** What a JWT app must answer before it is measured: the task to the token, 401 to none and to each refused token. */
function jwtChecks(token, refused) {
  const isObject = (json) => json !== null && typeof json === 'object';
  return [
    { label: 'GET /tasks/1 with a token', path: '/tasks/1', headers: bearer(token), status: [200], check: (json) => isDeepStrictEqual(json, { ...TASK, user: 'user-1' }) },
    { label: 'GET /tasks/1 without a token', path: '/tasks/1', status: [401], check: isObject },
    ...Object.entries(refused).map(([what, t]) => ({ label: `GET /tasks/1, ${what}`, path: '/tasks/1', headers: bearer(t), status: [401], check: isObject })),
  ];
}

module.exports = { ALGORITHMS, JWT_PAIRS, DEPENDENCY_PAIR, TASK, authEndpoints, authContenders, bearer };
