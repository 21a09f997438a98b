'use strict';
// Reading an OpenAPI document: its operations with their parameters merged (path level + operation level),
// local `$ref`s followed, JSON pointers to the places the checks report.

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** `~` and `/` escaped for one JSON-pointer segment. */
function escapePointer(segment) {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The value at a local `$ref` (`#/components/schemas/Task`), or undefined.
 * @param {object} doc
 * @param {string} ref
 */
function resolvePointer(doc, ref) {
  if (!ref.startsWith('#')) return undefined;
  let node = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = node[key];
  }
  return node;
}

/**
 * `node`, or what its `$ref` points at (followed until a node without one); undefined for a broken reference.
 * @example deref(doc, { $ref: '#/components/parameters/Page' }) // the parameter object
 */
function deref(doc, node) {
  const seen = new Set();
  while (node && typeof node === 'object' && typeof node.$ref === 'string') {
    if (seen.has(node.$ref)) return undefined;
    seen.add(node.$ref);
    node = resolvePointer(doc, node.$ref);
  }
  return node;
}

/**
 * Every operation of `doc`, in document order: `{ method, path, operation, parameters, pointer, id }`, the
 * parameters merged (an operation's own replaces a path-level one of the same name and location) and dereferenced.
 * @param {any} doc
 */
function operations(doc) {
  const found = [];
  for (const [path, rawItem] of Object.entries(doc.paths ?? {})) {
    const item = deref(doc, rawItem) ?? {};
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation || typeof operation !== 'object') continue;
      const byKey = new Map();
      for (const raw of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
        const parameter = deref(doc, raw);
        if (parameter && parameter.name) byKey.set(`${parameter.in}:${parameter.name}`, parameter);
      }
      found.push({
        method,
        path,
        operation,
        parameters: [...byKey.values()],
        pointer: `#/paths/${escapePointer(path)}/${method}`,
        id: `${method.toUpperCase()} ${path}`,
      });
    }
  }
  return found;
}

/** The media type without parameters, lower case: `application/json; charset=utf-8` -> `application/json`. */
function mediaType(contentType) {
  return String(contentType ?? '').split(';')[0].trim().toLowerCase();
}

/** Whether a media type carries JSON (`application/json`, `application/problem+json`). */
function isJSON(type) {
  return type === 'application/json' || type.endsWith('+json');
}

module.exports = { METHODS, escapePointer, resolvePointer, deref, operations, mediaType, isJSON };
