'use strict';
// What the Fastify WebSocket app does by hand that a trellis gateway does for its handlers (parse the frame,
// dispatch by event, answer an error frame; on the guarded echo, check the token's expiry and scope per message as
// jwtAuth does for a handler with @Scopes), and the memory probe both apps serve for bench/essentials.js.

/** The frame answering `text`: the echo of an `echo` event's data, or an error frame as trellis's are shaped. */
function echoAnswer(text) {
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    return JSON.stringify({ event: 'error', data: { error: 'Message is not JSON' } });
  }
  if (message?.event !== 'echo') return JSON.stringify({ event: 'error', data: { error: 'Unknown event' } });
  return JSON.stringify({ event: 'echo', data: message.data });
}

// trellis's refusals (framework/auth/refusals.ts) as its gateways send them: an error frame with the 401/403 body.
const refusal = (error) => JSON.stringify({ event: 'error', data: { error } });
const SCOPE_REFUSAL = refusal('The token lacks a scope this route needs');
const EXPIRED_REFUSAL = refusal('The token has expired');

/**
 * The frame answering `text` on the guarded echo, for the connection of `user` (the claims @fastify/jwt verified
 * on the upgrade): as {@link echoAnswer}, but an `echo` event is answered only while the token has not expired and
 * its `scope` claim (space-separated) holds `scope`; else the error frame trellis's jwtAuth sends.
 * @param {string} text
 * @param {{ scope?: unknown, exp?: unknown }} user
 * @param {string} scope
 */
function guardedEchoAnswer(text, user, scope) {
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    return JSON.stringify({ event: 'error', data: { error: 'Message is not JSON' } });
  }
  if (message?.event !== 'echo') return JSON.stringify({ event: 'error', data: { error: 'Unknown event' } });
  if (typeof user.exp === 'number' && user.exp <= Date.now() / 1000) return EXPIRED_REFUSAL;
  if (!(typeof user.scope === 'string' && user.scope.split(' ').includes(scope))) return SCOPE_REFUSAL;
  return JSON.stringify({ event: 'echo', data: message.data });
}

/**
 * `process.memoryUsage()` after a full collection when the process runs with --expose-gc (GET /memory: the idle
 * connections cell reads it before and after opening them).
 */
function memoryAnswer() {
  const gc = /** @type {(() => void) | undefined} */ (globalThis.gc);
  if (gc) {
    gc();
    gc();
  }
  return { ...process.memoryUsage(), collected: Boolean(gc) };
}

module.exports = { echoAnswer, guardedEchoAnswer, memoryAnswer, SCOPE_REFUSAL };
