'use strict';
// The requests of a contract run for one operation, generated from the document alone: a valid request (every
// parameter and the body sampled), a minimal one (required parts only), values at the edges of what the document
// allows, then invalid ones (a required parameter or property missing, a wrong type, a value out of range,
// malformed JSON, no body where one is required, another content type, no credentials, wrong credentials), and
// unknown path ids. Each request says what it expects: `success` (valid by the document), `failure` (invalid by
// it), or `any` (an unknown id: 404 or 200 are both fair, as long as the document says so).
const { deref, isJSON, mediaType } = require('../document');
const { sample, typeOf, edges, refused } = require('./values');

const UNKNOWN_ID = 999999;

/**
 * @typedef {{ kind: string, value?: any, contentType?: string, text?: string, fields?: Record<string, any> }} Body
 *   kind `json` (value), `raw` (contentType, text), `multipart` or `form` (fields)
 * @typedef {{ label: string, expect: 'success' | 'failure' | 'any', path: Record<string, any>,
 *   query: Record<string, any>, header: Record<string, any>, cookie: Record<string, any>, body?: Body,
 *   auth: 'valid' | 'none' | 'wrong' }} Request
 */

/**
 * The requests for `op` (from `operations(doc)`), valid first.
 * @param {any} doc
 * @param {any} op
 * @param {{ check: Function }} validator
 * @returns {Request[]}
 */
function requestsFor(doc, op, validator) {
  const { check } = validator;
  const schemaOf = (parameter) => deref(doc, parameter.schema ?? parameter.content?.[Object.keys(parameter.content)[0]]?.schema) ?? {};
  /** @type {Request} */
  const base = { label: 'valid', expect: 'success', path: {}, query: {}, header: {}, cookie: {}, body: undefined, auth: 'valid' };

  for (const parameter of op.parameters) {
    base[parameter.in][parameter.name] = parameterValue(doc, parameter, schemaOf(parameter));
  }
  const body = bodyPlan(doc, op.operation, validator);
  if (body) base.body = body.valid;
  if (body && body.sampleInvalid) {
    base.label = `valid (but the sampled body fails the document's schema: ${body.sampleInvalid})`;
    base.expect = 'any';
  }

  /** @type {Request[]} */
  const out = [{ ...base }];
  const variant = (label, expect, change) => {
    const next = structuredClone(base);
    next.label = label;
    next.expect = expect;
    change(next);
    out.push(next);
  };

  const optional = op.parameters.filter((p) => !p.required && p.in !== 'path');
  if (optional.length > 0 || (body && body.minimal)) {
    variant('only the required parts', 'success', (r) => {
      for (const p of optional) delete r[p.in][p.name];
      if (body) r.body = body.minimal ?? r.body;
    });
  }

  for (const parameter of op.parameters) {
    const schema = schemaOf(parameter);
    const where = `${parameter.in} ${parameter.name}`;
    if (parameter.in === 'path') {
      const unknown = typeOf(schema) === 'integer' || typeOf(schema) === 'number' ? Math.min(UNKNOWN_ID, schema.maximum ?? UNKNOWN_ID) : 'no-such-id';
      if (check(schema, unknown).valid) variant(`unknown ${where} ${unknown}`, 'any', (r) => (r.path[parameter.name] = unknown));
    } else {
      for (const edge of edges(schema)) {
        if (check(schema, edge.value).valid && edge.value !== base[parameter.in][parameter.name]) {
          variant(`${where}=${JSON.stringify(edge.value)} (${edge.why}, allowed)`, 'success', (r) => (r[parameter.in][parameter.name] = edge.value));
        }
      }
      if (parameter.required) variant(`${where} missing (required)`, 'failure', (r) => delete r[parameter.in][parameter.name]);
    }
    for (const bad of refused(schema, { wire: true })) {
      if (!check(schema, bad.value).valid) {
        variant(`${where}=${JSON.stringify(bad.value)} (${bad.why})`, 'failure', (r) => (r[parameter.in][parameter.name] = bad.value));
      }
    }
  }

  if (body) for (const invalid of body.invalid) variant(invalid.label, 'failure', (r) => (r.body = invalid.body));
  if (body && !body.required) variant('no body (optional)', 'success', (r) => (r.body = undefined));

  const security = op.operation.security ?? doc.security ?? [];
  const optionalAuth = security.some((requirement) => Object.keys(requirement).length === 0);
  if (security.length > 0 && !optionalAuth) {
    variant('no credentials', 'failure', (r) => (r.auth = 'none'));
    variant('wrong credentials', 'failure', (r) => (r.auth = 'wrong'));
  }
  return out;
}

/** A valid value for a parameter: its example, else the sampler's (default, enum, minimum...); ids from 1. */
function parameterValue(doc, parameter, schema) {
  if (parameter.example !== undefined) return parameter.example;
  const examples = Object.values(parameter.examples ?? {}).map((e) => deref(doc, e)?.value);
  if (examples.length > 0 && examples[0] !== undefined) return examples[0];
  const type = typeOf(schema);
  if (parameter.in === 'path' && (type === 'integer' || type === 'number') && schema.default === undefined && !schema.enum) {
    return Math.max(1, schema.minimum ?? 1); // the ids a fresh app has (tasks 1-2, the first product, the user made first)
  }
  return sample(doc, schema);
}

/**
 * What to send as the body: `{ valid, minimal, required, invalid: [{ label, body }] }`, or undefined without a
 * request body. JSON bodies get the full set of invalid variants; forms the missing parts.
 */
function bodyPlan(doc, operation, { check }) {
  const requestBody = deref(doc, operation.requestBody);
  if (!requestBody || !requestBody.content) return undefined;
  const types = Object.keys(requestBody.content);
  const type = types.find((t) => isJSON(mediaType(t))) ?? types.find((t) => mediaType(t) === 'multipart/form-data') ?? types.find((t) => mediaType(t) === 'application/x-www-form-urlencoded') ?? types[0];
  const media = mediaType(type);
  const schema = requestBody.content[type].schema ?? {};
  const resolved = deref(doc, schema) ?? {};
  const required = requestBody.required === true;
  const value = sample(doc, schema);
  const minimalValue = sample(doc, schema, { requiredOnly: true });
  const invalid = [];

  if (isJSON(media)) {
    const json = (v) => ({ kind: 'json', value: v });
    const differs = JSON.stringify(minimalValue) !== JSON.stringify(value) && check(schema, minimalValue).valid;
    for (const { label, value: bad } of mutations(doc, resolved, value, check)) invalid.push({ label: `body ${label}`, body: json(bad) });
    invalid.push({ label: 'malformed JSON body', body: { kind: 'raw', contentType: type, text: '{"malformed": ' } });
    if (!types.some((t) => ['text/plain', 'text/*', '*/*'].includes(mediaType(t)))) {
      invalid.push({ label: 'body as text/plain', body: { kind: 'raw', contentType: 'text/plain', text: JSON.stringify(value) } });
    }
    if (required) invalid.push({ label: 'no body (required)', body: undefined });
    const { valid: sampleValid, errors } = check(schema, value);
    return { valid: json(value), minimal: differs ? json(minimalValue) : undefined, required, invalid, sampleInvalid: sampleValid ? undefined : errors };
  }

  if (media === 'multipart/form-data' || media === 'application/x-www-form-urlencoded') {
    const kind = media === 'multipart/form-data' ? 'multipart' : 'form';
    const fields = {};
    for (const [name, raw] of Object.entries(resolved.properties ?? {})) {
      const property = deref(doc, raw) ?? {};
      fields[name] = property.format === 'binary' || property.contentMediaType ? { file: 'sample.txt', text: 'hello from the contract run\n' } : value?.[name];
    }
    const requiredNames = resolved.required ?? [];
    const minimal = Object.fromEntries(Object.entries(fields).filter(([name]) => requiredNames.includes(name)));
    for (const name of requiredNames) {
      const { [name]: _left, ...rest } = fields;
      invalid.push({ label: `form field ${name} missing (required)`, body: { kind, fields: rest } });
    }
    if (required) invalid.push({ label: 'no body (required)', body: undefined });
    const hasOptional = Object.keys(minimal).length !== Object.keys(fields).length;
    return { valid: { kind, fields }, minimal: hasOptional ? { kind, fields: minimal } : undefined, required, invalid };
  }

  return { valid: { kind: 'raw', contentType: type, text: typeof value === 'string' ? value : JSON.stringify(value ?? '') }, minimal: undefined, required, invalid };
}

/**
 * Invalid variants of a JSON body `value` (schema `schema`): a required property missing, each property of a
 * wrong type or out of range, the body of the wrong type; for an array body the same on its first item. Only
 * variants the document's validator refuses are kept.
 */
function mutations(doc, schema, value, check) {
  const found = [];
  const keep = (label, bad) => {
    if (!check(schema, bad).valid) found.push({ label, value: bad });
  };
  const type = typeOf(schema);
  if (type === 'array' && Array.isArray(value)) {
    const items = deref(doc, schema.items) ?? {};
    const item = value[0] ?? sample(doc, schema.items);
    for (const inner of objectMutations(doc, items, item)) keep(`item 0 ${inner.label}`, [inner.value, ...value.slice(1)]);
    for (const bad of refused(schema, { item })) keep(bad.why, bad.value);
    keep('an object for an array', {});
    return found;
  }
  for (const inner of objectMutations(doc, schema, value)) keep(inner.label, inner.value);
  if (type === 'object') keep('an array for an object', []);
  return found;
}

/** Missing required properties, and each property replaced by refused values. */
function objectMutations(doc, schema, value) {
  const found = [];
  if (typeOf(schema) !== 'object' || value === null || typeof value !== 'object' || Array.isArray(value)) {
    return refused(schema).map((bad) => ({ label: bad.why, value: bad.value }));
  }
  for (const name of schema.required ?? []) {
    const { [name]: _left, ...rest } = value;
    found.push({ label: `${name} missing (required)`, value: rest });
  }
  for (const [name, raw] of Object.entries(schema.properties ?? {})) {
    const property = deref(doc, raw) ?? {};
    const item = property.items ? sample(doc, property.items) : undefined;
    for (const bad of refused(property, { item })) found.push({ label: `${name}=${short(bad.value)} (${bad.why})`, value: { ...value, [name]: bad.value } });
  }
  return found;
}

/** A value in a label, cut to 30 characters. */
function short(value) {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 30 ? `${text.slice(0, 27)}...` : text;
}

module.exports = { requestsFor };
