'use strict';
// JSON Schema validation with the document's components resolved: ajv (draft 2020-12 for OpenAPI 3.1, whose
// schemas are JSON Schema 2020-12; draft-07 for 3.0, whose `nullable` ajv knows) and ajv-formats. The whole document is
// added to ajv as `doc`, and a schema's local `$ref`s (`#/components/schemas/Task`) are rewritten to
// `doc#/components/schemas/Task`, so any schema taken from anywhere in the document compiles on its own.
const Ajv2020 = require('ajv/dist/2020').default;
const AjvDraft7 = require('ajv').default;
const addFormats = require('ajv-formats').default;
const { deref } = require('../document');

/**
 * A validator factory for `doc`: `check(schema, value)` -> `{ valid, errors }` (ajv's error text), compiled once
 * per schema object.
 * @example const { check } = schemas(doc); check({ $ref: '#/components/schemas/Task' }, body).valid
 */
function schemas(doc) {
  const v30 = String(doc.openapi ?? '').startsWith('3.0');
  /** @type {any} */
  const options = { strict: false, allErrors: true, logger: false, validateSchema: false };
  const ajv = v30 ? new AjvDraft7(options) : new Ajv2020(options);
  addFormats(ajv);
  ajv.addSchema(rewrite(doc), 'doc');
  const compiled = new WeakMap();

  function compile(schema) {
    if (schema === undefined || schema === null || typeof schema !== 'object') return undefined;
    if (!compiled.has(schema)) {
      let validate;
      try {
        validate = ajv.compile(rewrite(schema));
      } catch (error) {
        validate = { failed: `the schema does not compile: ${/** @type {any} */ (error).message}` };
      }
      compiled.set(schema, validate);
    }
    return compiled.get(schema);
  }

  /** Whether `value` satisfies `schema`; a schema that does not compile is reported as an error. */
  function check(schema, value) {
    const validate = compile(schema);
    if (validate === undefined) return { valid: true, errors: '' };
    if (validate.failed) return { valid: false, errors: validate.failed };
    const valid = validate(value);
    return { valid, errors: valid ? '' : ajv.errorsText(validate.errors, { separator: '; ', dataVar: 'body' }) };
  }

  return { check, resolve: (schema) => deref(doc, schema) };
}

/** A deep copy of `node` with local references made absolute (`#/x` -> `doc#/x`). */
function rewrite(node) {
  if (Array.isArray(node)) return node.map(rewrite);
  if (node === null || typeof node !== 'object') return node;
  const copy = {};
  for (const [key, value] of Object.entries(node)) {
    copy[key] = key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `doc${value}` : rewrite(value);
  }
  return copy;
}

module.exports = { schemas };
