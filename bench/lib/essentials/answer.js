'use strict';
// One request from the harness with its body decoded as a browser would (gzip, br, deflate), and one WebSocket
// exchange: what the check before measuring and bench/tests/essentials.test.js compare.
const http = require('node:http');
const zlib = require('node:zlib');
const WebSocket = require('ws');

const DECODERS = { gzip: zlib.gunzipSync, br: zlib.brotliDecompressSync, deflate: zlib.inflateSync };

/**
 * @typedef {object} Answer
 * @property {number} status
 * @property {http.IncomingHttpHeaders} headers
 * @property {number} bytes the body's length on the wire (compressed, when it was)
 * @property {string} text the body decoded (decompressed per Content-Encoding), as UTF-8
 * @property {any} json the text parsed, or undefined
 */

/**
 * Resolves to the {@link Answer} of `method path` with `headers`; rejects on a connection error, an unknown
 * Content-Encoding or after `timeoutMs`.
 * @param {number} port
 * @param {{ method?: string, path: string, headers?: Record<string, string> }} what
 * @returns {Promise<Answer>}
 */
function fetchAnswer(port, { method = 'GET', path, headers = {} }, timeoutMs = 15_000) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        try {
          const raw = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const decode = encoding ? DECODERS[encoding] : undefined;
          if (encoding && !decode) throw new Error(`unknown content-encoding ${encoding}`);
          const text = (decode ? decode(raw) : raw).toString('utf8');
          let json;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: /** @type {number} */ (res.statusCode), headers: res.headers, bytes: raw.length, text, json });
        } catch (error) {
          reject(error);
        }
      });
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/**
 * Opens a WebSocket to `path` (with `headers` on the upgrade), sends each of `frames` in turn, waiting for one
 * answer each; resolves to the answers (text) and closes. Rejects when the upgrade fails or an answer takes more
 * than `timeoutMs`.
 * @param {number} port
 * @param {string} path
 * @param {string[]} frames
 * @param {Record<string, string>} [headers]
 */
async function exchange(port, path, frames, timeoutMs = 15_000, headers = undefined) {
  const socket = await openSocket(port, path, timeoutMs, headers);
  try {
    const answers = [];
    for (const frame of frames) {
      answers.push(
        await new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no answer to ${frame} in ${timeoutMs} ms`)), timeoutMs);
          socket.once('message', (data) => {
            clearTimeout(timer);
            resolve(String(data));
          });
          socket.send(frame);
        }),
      );
    }
    return answers;
  } finally {
    socket.terminate();
  }
}

/**
 * Resolves to an open `ws` client of `ws://127.0.0.1:port/path`, `headers` sent on the upgrade (an Authorization,
 * say); rejects on an upgrade refused (an Error with its `status`) or a timeout.
 * @param {number} port
 * @param {string} path
 * @param {Record<string, string>} [headers]
 * @returns {Promise<WebSocket>}
 */
function openSocket(port, path, timeoutMs = 10_000, headers = undefined) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}${path}`, { handshakeTimeout: timeoutMs, ...(headers ? { headers } : {}) });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_req, res) => {
      reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode }));
      socket.terminate();
    });
    socket.once('error', reject);
  });
}

module.exports = { fetchAnswer, exchange, openSocket };
