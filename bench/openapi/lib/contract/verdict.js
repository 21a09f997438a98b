'use strict';
// One response held against the document: its status is documented (exactly, as a range like `4XX`, or by
// `default`); a body comes with a content type the document lists for that status; the body is valid against
// that media type's schema (JSON parsed first); required response headers are present. A request the document
// calls invalid that was answered with a success is reported too (`accepted-invalid`); a valid one answered
// 4xx is a note (`refused-valid`), not a mismatch, since a documented 4xx is still what the document says.
const { deref, mediaType, isJSON } = require('../document');

/**
 * @typedef {{ status: number, headers: Headers, text: string }} Answer
 * @typedef {{ kind: string, reason: string }} Finding
 */

/** The documented response for `status`: exact, then `4XX`-style range, then `default`. */
function documentedResponse(doc, operation, status) {
  const responses = operation.responses ?? {};
  const key = [String(status), `${String(status)[0]}XX`, `${String(status)[0]}xx`, 'default'].find((k) => responses[k] !== undefined);
  return key === undefined ? undefined : { key, response: deref(doc, responses[key]) ?? {} };
}

/** The documented media type matching `type` (exact, `type/*`, `*\/*`), or undefined. */
function documentedMedia(content, type) {
  const keys = Object.keys(content ?? {});
  return (
    keys.find((k) => mediaType(k) === type) ??
    keys.find((k) => mediaType(k) === `${type.split('/')[0]}/*`) ??
    keys.find((k) => mediaType(k) === '*/*')
  );
}

/**
 * The findings for one answer: `{ mismatches: Finding[], notes: Finding[] }`.
 * @param {any} doc
 * @param {any} operation
 * @param {{ expect: string }} request
 * @param {Answer} answer
 * @param {{ check: Function }} validator
 */
function judge(doc, operation, request, answer, { check }) {
  const mismatches = [];
  const notes = [];
  const { status } = answer;
  if (request.expect === 'failure' && status < 400) {
    mismatches.push({ kind: 'accepted-invalid', reason: `answered ${status} to a request the document calls invalid` });
  }
  if (request.expect === 'success' && status >= 400 && status < 500) {
    notes.push({ kind: 'refused-valid', reason: `answered ${status} to a request the document calls valid` });
  }

  const documented = documentedResponse(doc, operation, status);
  if (!documented) {
    const listed = Object.keys(operation.responses ?? {}).join(', ') || 'none';
    mismatches.push({ kind: 'status', reason: `status ${status} not documented (documented: ${listed})` });
    return { mismatches, notes };
  }
  const { response } = documented;

  for (const [name, raw] of Object.entries(response.headers ?? {})) {
    const header = deref(doc, raw) ?? {};
    if (header.required && !answer.headers.has(name)) mismatches.push({ kind: 'header', reason: `required header ${name} missing` });
  }

  const type = mediaType(answer.headers.get('content-type'));
  const hasBody = answer.text.length > 0;
  const content = response.content ?? {};
  const documentedTypes = Object.keys(content);
  if (!hasBody) {
    if (documentedTypes.length > 0 && status !== 204 && status !== 304) {
      mismatches.push({ kind: 'body', reason: `empty body; the document says ${documentedTypes.join(', ')}` });
    }
    return { mismatches, notes };
  }
  if (documentedTypes.length === 0) {
    mismatches.push({ kind: 'content-type', reason: `${type || 'a body without content type'} sent; the document gives status ${documented.key} no content` });
    return { mismatches, notes };
  }
  const media = documentedMedia(content, type);
  if (media === undefined) {
    mismatches.push({ kind: 'content-type', reason: `content type ${type || '(none)'} not documented (documented: ${documentedTypes.join(', ')})` });
    return { mismatches, notes };
  }

  const schema = content[media].schema;
  if (schema === undefined) return { mismatches, notes };
  let value = answer.text;
  if (isJSON(type)) {
    try {
      value = JSON.parse(answer.text);
    } catch {
      mismatches.push({ kind: 'body', reason: `${type} body is not JSON` });
      return { mismatches, notes };
    }
  } else if (!type.startsWith('text/')) {
    return { mismatches, notes }; // binary bodies: the content type is all that is checked
  }
  const { valid, errors } = check(schema, value);
  if (!valid) mismatches.push({ kind: 'body', reason: `body does not match the schema: ${errors}` });
  return { mismatches, notes };
}

module.exports = { judge, documentedResponse };
