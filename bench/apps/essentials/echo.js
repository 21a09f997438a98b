'use strict';
// What the Fastify WebSocket app does by hand that a trellis gateway does for its handlers (parse the frame,
// dispatch by event, answer an error frame), and the memory probe both apps serve for bench/essentials.js.

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

module.exports = { echoAnswer, memoryAnswer };
