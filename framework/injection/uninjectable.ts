/**
 * Why a recorded parameter type cannot be injected by type, or undefined when it can (a class). TypeScript
 * records `Object` for interfaces and object types, and the wrappers for primitives.
 */
export function uninjectable(type: Function): string | undefined {
  if (type === Object) return 'is typed with an interface or object type (TypeScript records Object for it)';
  if (PRIMITIVES.has(type)) return `is typed ${type.name.toLowerCase()}, a primitive`;
  if (BUILT_INS.has(type)) return `is typed ${type.name}, a built-in`;
  return undefined;
}

const PRIMITIVES = new Set<Function>([String, Number, Boolean, Symbol, BigInt]);
const BUILT_INS = new Set<Function>([Array, Function, Promise, Date, Map, Set, RegExp, Error]);
