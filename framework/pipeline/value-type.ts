import { TrellisError } from '../framework-error';
import type { ParamDefinition } from '../metadata';
import type { ScalarType } from '../core/types';

/**
 * What a path, query or header value is converted to, from the decorator's `type`, else the design type,
 * else the default's type (`x: number | null` records `Object`, so `{ default: 0 }` still makes it a number).
 * Text that no scalar can hold (a class) is a startup error. The request pipeline and the OpenAPI document
 * both read types through here, so the docs say what the server does.
 */
export function valueTypeOf(label: string, param: ParamDefinition, designType: unknown): ScalarType | [ScalarType] {
  const declared = param.type ?? designType;
  if (Array.isArray(declared)) return [scalarOf(label, param, declared[0])];
  if (declared === Array) return ['string'];
  if ((declared === Object || declared === undefined) && param.hasDefault) {
    const kind = typeof param.default;
    if (kind === 'number' || kind === 'boolean') return kind;
  }
  return scalarOf(label, param, declared);
}

function scalarOf(label: string, param: ParamDefinition, type: unknown): ScalarType {
  if (typeof type === 'string') return type as ScalarType;
  if (type === Number) return 'number';
  if (type === Boolean) return 'boolean';
  if (type === String || type === Object || type === undefined) return 'string';
  const name = (type as Function).name ?? String(type);
  throw new TrellisError('TRELLIS_ERR_PARAM_TYPE', label, param.name, name, param.kind);
}
