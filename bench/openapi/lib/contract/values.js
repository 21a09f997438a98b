'use strict';
// Values from schemas: a valid one (openapi-sampler, which takes examples, defaults, enums and minimums first),
// values at the edges of what a schema allows, and values it refuses (wrong type, out of range, not in the enum,
// too short or long). Every candidate is checked with the document's own validator before it is used, so a
// "valid" value is valid and an "invalid" one invalid by the document, not by a guess of this file.
const Sampler = require('openapi-sampler');

/**
 * A sample of `schema` (its `$ref`s resolved against `doc`), or undefined when the sampler cannot make one.
 * @param {object} doc
 * @param {object} schema
 * @param {{ requiredOnly?: boolean }} [options]
 */
function sample(doc, schema, { requiredOnly = false } = {}) {
  if (!schema) return undefined;
  try {
    return Sampler.sample(schema, { skipReadOnly: true, skipNonRequired: requiredOnly, quiet: true }, doc);
  } catch {
    return undefined;
  }
}

/** The type keyword of a schema (the first non-null one of a list). */
function typeOf(schema) {
  if (!schema) return undefined;
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null');
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  if (schema.enum && schema.enum.length > 0) return typeof schema.enum[0];
  return undefined;
}

/** A string of `length` characters. */
const text = (length) => 'x'.repeat(Math.max(0, length));

/**
 * Values a schema allows at its edges (lowest and highest numbers, an arbitrary string where nothing restricts
 * strings): `[{ value, why }]`, unchecked.
 */
function edges(schema) {
  const found = [];
  const type = typeOf(schema);
  if (schema.enum || schema.const !== undefined) return found;
  if (type === 'integer' || type === 'number') {
    if (schema.minimum === undefined && schema.exclusiveMinimum === undefined) found.push({ value: 0, why: 'zero' }, { value: -1, why: 'negative' });
    else if (typeof schema.minimum === 'number') found.push({ value: schema.minimum, why: `minimum ${schema.minimum}` });
    if (typeof schema.maximum === 'number') found.push({ value: schema.maximum, why: `maximum ${schema.maximum}` });
  } else if (type === 'string' && !schema.format && !schema.pattern) {
    let value = 'zzz-unknown';
    if (typeof schema.maxLength === 'number') value = value.slice(0, schema.maxLength);
    if (typeof schema.minLength === 'number') value = value.padEnd(schema.minLength, 'z');
    found.push({ value, why: 'an arbitrary string' });
  }
  return found;
}

/**
 * Values a schema refuses: `[{ value, why, kind }]` (kind `type` or `range`), unchecked. `wire` is true for
 * parameters, whose values travel as text: a wrong type there is text that does not convert. `item` fills
 * an array made longer than maxItems.
 * @param {any} schema
 * @param {{ wire?: boolean, item?: unknown }} [options]
 */
function refused(schema, { wire = false, item = undefined } = {}) {
  const found = [];
  const type = typeOf(schema);
  const add = (value, why, kind = 'range') => found.push({ value, why, kind });
  if (type === 'integer') {
    add('abc', 'text for an integer', 'type');
    add(1.5, 'a fraction for an integer', 'type');
  } else if (type === 'number') {
    add('abc', 'text for a number', 'type');
  } else if (type === 'boolean') {
    add(wire ? 'maybe' : 'yes', 'text for a boolean', 'type');
  } else if (!wire) {
    if (type === 'string') add(12345, 'a number for a string', 'type');
    if (type === 'array') add('x', 'a string for an array', 'type');
    if (type === 'object') add('x', 'a string for an object', 'type');
  }
  if (type === 'integer' || type === 'number') {
    if (typeof schema.minimum === 'number') add(schema.minimum - 1, `below minimum ${schema.minimum}`);
    if (typeof schema.exclusiveMinimum === 'number') add(schema.exclusiveMinimum, `at exclusiveMinimum ${schema.exclusiveMinimum}`);
    if (typeof schema.maximum === 'number') add(schema.maximum + 1, `above maximum ${schema.maximum}`);
    if (typeof schema.exclusiveMaximum === 'number') add(schema.exclusiveMaximum, `at exclusiveMaximum ${schema.exclusiveMaximum}`);
  }
  if (type === 'string') {
    if (typeof schema.minLength === 'number' && schema.minLength > 0) add(text(schema.minLength - 1), `shorter than minLength ${schema.minLength}`);
    if (typeof schema.maxLength === 'number') add(text(schema.maxLength + 1), `longer than maxLength ${schema.maxLength}`);
    if (schema.enum) add('not-in-the-enum', 'not in the enum');
    if (schema.pattern) add('!not matching!', `not matching ${schema.pattern}`);
    if (schema.format === 'email') add('not-an-email', 'not an email');
    if (schema.format === 'date-time' || schema.format === 'date') add('not-a-date', `not a ${schema.format}`);
    if (schema.format === 'uuid') add('not-a-uuid', 'not a uuid');
  }
  if (type === 'array') {
    if (typeof schema.maxItems === 'number') add(new Array(schema.maxItems + 1).fill(item ?? 'x'), `more than maxItems ${schema.maxItems}`);
    if (typeof schema.minItems === 'number' && schema.minItems > 0) add([], `fewer than minItems ${schema.minItems}`);
  }
  return found;
}

module.exports = { sample, typeOf, edges, refused };
