'use strict';
// The contract run: every operation's generated requests (requests.js) sent to a running server, every answer
// judged against the document (verdict.js). Operations that create go first (POST without path parameters: the
// users, products and tasks the by-id routes then find), replacing and reading next, deleting last.
const { operations } = require('../document');
const { schemas } = require('./schemas');
const { requestsFor } = require('./requests');
const { judge } = require('./verdict');

const ORDER = { post: 0, get: 1, head: 1, options: 1, put: 2, patch: 2, trace: 3, delete: 4 };

/** Creating operations first, deleting ones last, document order otherwise. */
function ordered(ops) {
  const rank = (op) => (op.method === 'post' && !op.path.includes('{') ? -1 : ORDER[op.method]);
  return ops.map((op, index) => ({ op, index })).sort((a, b) => rank(a.op) - rank(b.op) || a.index - b.index).map(({ op }) => op);
}

/** The server URL the document names, resolved against `base` (a relative `servers[0].url` keeps base's origin). */
function serverURL(doc, base) {
  const server = doc.servers?.[0];
  if (!server || !server.url) return new URL(base).origin;
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name) => server.variables?.[name]?.default ?? '');
  const resolved = new URL(url, base);
  // An absolute server on another host (http://localhost:8000 in a document served elsewhere): keep its path only.
  return `${new URL(base).origin}${resolved.pathname.replace(/\/$/, '')}`;
}

/** Headers and query entries that carry credentials for `security` (the first requirement all of whose schemes are known). */
function credentials(doc, security, mode, { token, basic }) {
  const out = { header: {}, query: {}, cookie: {} };
  if (mode === 'none' || !security || security.length === 0) return out;
  const schemes = doc.components?.securitySchemes ?? {};
  const secret = mode === 'wrong' ? 'wrong-token-from-the-contract-run' : token;
  const requirement = security.find((r) => Object.keys(r).length > 0 && Object.keys(r).every((name) => schemes[name]));
  for (const name of Object.keys(requirement ?? {})) {
    const scheme = schemes[name];
    if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'basic') {
      out.header.Authorization = `Basic ${Buffer.from(mode === 'wrong' ? 'wrong:wrong' : basic ?? `user:${token}`).toString('base64')}`;
    } else if (scheme.type === 'http' || scheme.type === 'oauth2' || scheme.type === 'openIdConnect') {
      out.header.Authorization = `Bearer ${secret}`;
    } else if (scheme.type === 'apiKey') {
      out[scheme.in === 'header' ? 'header' : scheme.in][scheme.name] = secret;
    }
  }
  return out;
}

/** The fetch arguments for a generated request. */
function toFetch(doc, op, request, server, auth) {
  const creds = credentials(doc, op.operation.security ?? doc.security, request.auth, auth);
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(wire(request.path[name])));
  const url = new URL(server + path);
  for (const [name, value] of Object.entries({ ...request.query, ...creds.query })) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) url.searchParams.append(name, wire(one));
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries({ ...request.header, ...creds.header })) if (value !== undefined) headers.set(name, wire(value));
  const cookies = Object.entries({ ...request.cookie, ...creds.cookie }).filter(([, v]) => v !== undefined);
  if (cookies.length > 0) headers.set('cookie', cookies.map(([k, v]) => `${k}=${encodeURIComponent(wire(v))}`).join('; '));
  let body;
  const sent = request.body;
  if (sent?.kind === 'json') {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(sent.value);
  } else if (sent?.kind === 'raw') {
    headers.set('content-type', sent.contentType);
    body = sent.text;
  } else if (sent?.kind === 'multipart') {
    body = new FormData();
    for (const [name, value] of Object.entries(sent.fields)) {
      if (value && typeof value === 'object' && value.file) body.append(name, new Blob([value.text], { type: 'text/plain' }), value.file);
      else if (value !== undefined) body.append(name, wire(value));
    }
  } else if (sent?.kind === 'form') {
    body = new URLSearchParams(Object.entries(sent.fields).filter(([, v]) => v !== undefined).map(([k, v]) => /** @type {[string, string]} */ ([k, wire(v)])));
  }
  return { url: url.toString(), init: { method: op.method.toUpperCase(), headers, body, redirect: /** @type {const} */ ('manual') } };
}

/** A value as it travels in a path, query, header or cookie. */
function wire(value) {
  return typeof value === 'string' ? value : value === undefined ? '' : Array.isArray(value) ? value.map(wire).join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * Runs the contract checks of `doc` against the server at `base`.
 * Resolves to `{ responses, mismatches: [{ method, path, status, kind, reason, request }], notes, byKind, errors }`.
 * @example const result = await contractRun(doc, 'http://127.0.0.1:8000', { token: 'secret' });
 * @param {any} doc
 * @param {string} base
 * @param {{ token?: string, basic?: string, timeoutMs?: number }} [options]
 */
async function contractRun(doc, base, { token = '', basic = undefined, timeoutMs = 10_000 } = {}) {
  const validator = schemas(doc);
  const server = serverURL(doc, base);
  /** @type {{ server: string, responses: number, mismatchedResponses: number, mismatches: string[], notes: string[], byKind: Record<string, number>, statuses: Record<string, number>, errors: string[] }} */
  const result = { server, responses: 0, mismatchedResponses: 0, mismatches: [], notes: [], byKind: {}, statuses: {}, errors: [] };
  for (const op of ordered(operations(doc))) {
    let requests;
    try {
      requests = requestsFor(doc, op, validator);
    } catch (error) {
      result.errors.push(`${op.id}: could not generate requests: ${/** @type {any} */ (error).message}`);
      continue;
    }
    for (const request of requests) {
      const { url, init } = toFetch(doc, op, request, server, { token, basic });
      let answer;
      try {
        const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
        answer = { status: response.status, headers: response.headers, text: await response.text() };
      } catch (error) {
        result.errors.push(`${op.id} [${request.label}]: no answer: ${/** @type {any} */ (error).cause?.message ?? /** @type {any} */ (error).message}`);
        continue;
      }
      result.responses++;
      result.statuses[answer.status] = (result.statuses[answer.status] ?? 0) + 1;
      const { mismatches, notes } = judge(doc, op.operation, request, answer, validator);
      if (mismatches.length > 0) result.mismatchedResponses++;
      const line = (finding) => ({ method: op.method.toUpperCase(), path: op.path, status: answer.status, ...finding, request: request.label });
      for (const finding of mismatches) {
        result.mismatches.push(line(finding));
        result.byKind[finding.kind] = (result.byKind[finding.kind] ?? 0) + 1;
      }
      for (const finding of notes) result.notes.push(line(finding));
    }
  }
  return result;
}

module.exports = { contractRun, serverURL };
