import { MAX_JSON_DEPTH, jsonRefusal, type JsonLimits } from './body';

/**
 * Holds a body another parser already made (an outer `express.json()` before a mounted app) to the rules
 * `parseJson` holds bytes to: nesting of at most {@link MAX_JSON_DEPTH} levels (400), at most `maxObjectKeys`
 * keys in one object and `maxJsonContainers` objects and arrays in all (413), an array body of at most
 * `maxItems` items (413), and no `__proto__` or `constructor.prototype` key (400), with the same answers.
 * Returns the value; throws the refusal. The walk stops at the first excess, and a cycle is too deep.
 */
export function checkParsedJson(value: unknown, limits: Readonly<JsonLimits>, maxItems = Infinity): unknown {
  let containers = 0;
  // In the order parseJson's scan meets them in the bytes: a container's depth and count where it opens, an
  // object's keys one by one before each value, a top-level array's items one by one.
  const visit = (node: unknown, depth: number): void => {
    if (node === null || typeof node !== 'object') return;
    if (depth > MAX_JSON_DEPTH) throw jsonRefusal('depth', limits, maxItems);
    if (++containers > limits.maxJsonContainers) throw jsonRefusal('containers', limits, maxItems);
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        if (depth === 1 && i >= maxItems) throw jsonRefusal('items', limits, maxItems);
        visit(node[i], depth + 1);
      }
      return;
    }
    const keys = Object.keys(node);
    for (let i = 0; i < keys.length; i++) {
      if (i >= limits.maxObjectKeys) throw jsonRefusal('keys', limits, maxItems);
      visit((node as Record<string, unknown>)[keys[i]], depth + 1);
    }
  };
  visit(value, 1);
  // As parseJson, prototype keys are looked for once the limits hold.
  if (hasPrototypeKey(value)) throw jsonRefusal('prototype', limits, maxItems);
  return value;
}

// secure-json-parse's `protoAction` and `constructorAction`: a `__proto__` key, or a `constructor` key whose
// value is an object with a `prototype` key, anywhere.
function hasPrototypeKey(node: unknown): boolean {
  if (node === null || typeof node !== 'object') return false;
  if (Array.isArray(node)) return node.some(hasPrototypeKey);
  if (Object.hasOwn(node, '__proto__')) return true;
  const record = node as Record<string, unknown>;
  if (Object.hasOwn(node, 'constructor') && record.constructor !== null && typeof record.constructor === 'object' && Object.hasOwn(record.constructor, 'prototype')) return true;
  return Object.keys(node).some((key) => hasPrototypeKey(record[key]));
}
