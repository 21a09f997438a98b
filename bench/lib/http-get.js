'use strict';
// One-off HTTP requests from the harness (readiness polls and answer checks), never pooled.
const http = require('node:http');

/**
 * Resolves to `{ status, headers, text, json }`; rejects on a connection error or after `timeoutMs`.
 * @param {number} port
 * @param {{ method?: string, path: string, body?: unknown, headers?: Record<string, string> }} what
 * @returns {Promise<{ status: number, headers: http.IncomingHttpHeaders, text: string, json: any }>}
 */
function request(port, { method = 'GET', path, body, headers: extra = {} }, timeoutMs = 5000) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = payload === undefined ? { ...extra } : { ...extra, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) };
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: /** @type {number} */ (res.statusCode), headers: res.headers, text, json });
      });
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}

module.exports = { request };
