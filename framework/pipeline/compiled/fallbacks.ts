import type { Class } from '../../core/types';
import type { RouteInfo } from '../../routing/route-info';
import { bodyClassOf } from '../arguments';
import { compileRules } from './index';
import { isValueClass } from '../value-class';

/** A DTO class that some route validates with class-validator at request time, and why it is not compiled. */
export interface ValidationFallback {
  model: Class;
  /** One line: `TaskIn.slug: custom constraint IsSlug`. */
  reason: string;
}

/**
 * The body, query and header classes of `routes` whose rules framework/pipeline/compiled cannot compile (custom or async
 * constraints, validation groups, ...): those keep class-validator's `validate` per request. Each class once,
 * in route order.
 *
 * @example
 * ```ts
 * import { inspectApp, validationFallbacks } from 'trellis/inspect';
 *
 * for (const { model, reason } of validationFallbacks(inspectApp(app).routes.map((route) => route.info))) {
 *   console.log(`${model.name}: ${reason}`);
 * }
 * ```
 */
export function validationFallbacks(routes: readonly RouteInfo[]): ValidationFallback[] {
  const seen = new Set<Class>();
  const fallbacks: ValidationFallback[] = [];
  for (const route of routes) {
    for (const param of route.params) {
      if (param.kind !== 'body' && !isValueClass(param)) continue;
      const model = param.kind === 'body' ? bodyClassOf(param, route.paramTypes[param.index]) : (param.type ?? route.paramTypes[param.index]) as Class;
      if (!model || seen.has(model)) continue;
      seen.add(model);
      const rules = compileRules(model);
      if (rules.kind === 'fallback') fallbacks.push({ model, reason: rules.reason });
    }
  }
  return fallbacks;
}
