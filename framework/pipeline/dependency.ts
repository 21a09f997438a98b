import { methodParameterNames, type ConstructorParameter } from '../injection/parameters';
import type { DependencyPlan } from '../injection/dependency-plan';
import { requestValidationFailure, type ValidationDetail } from '../http-exception';
import type { RouteInfo } from '../routing/route-info';
import { pathParams } from '../routing/path';
import type { Request } from '../request';
import { valueExtractor, type SyncExtractor } from './arguments';
import type { RequestScope } from './request-scope';
import { isThenable } from '../core/thenable';

/** A route's `@Depends()` parameters, in order: where each goes among the handler's arguments and what it asks for. */
export function dependencyParameters(route: Pick<RouteInfo, 'params' | 'paramTypes' | 'router' | 'handlerName'>): Array<{ index: number; parameter: ConstructorParameter }> {
  const params = route.params.filter((param) => param.kind === 'dependency').sort((a, b) => a.index - b.index);
  if (!params.length) return [];
  const names = methodParameterNames((route.router.prototype as Record<string | symbol, Function | undefined>)[route.handlerName]);
  return params.map((param) => {
    const token = (param.token ?? route.paramTypes[param.index]) as ConstructorParameter['token'];
    const name = `@Depends() ${names[param.index] || `#${param.index + 1}`}`;
    return { index: param.index, parameter: { position: param.index + 1, name, token, explicit: param.token !== undefined } };
  });
}

/**
 * A route's dependencies, compiled once from the container's plan: `fill` makes them for one request, `place`
 * puts them among the handler's arguments.
 */
export interface RouteDependencies {
  /** How many steps the plan has: the size of a request's scope. */
  size: number;
  /**
   * Reads every request value the dependencies take (a 422 with every failed check, before anything is made), then
   * makes them in order into `scope`; a promise only when a factory returns one. Throws what a constructor threw.
   */
  fill(scope: RequestScope, request: Request): void | Promise<void>;
  place(scope: RequestScope, args: unknown[]): void;
}

export function compileDependencies(route: Pick<RouteInfo, 'params' | 'paramTypes' | 'path' | 'router' | 'handlerName'>, plan: DependencyPlan): RouteDependencies {
  const { steps } = plan;
  const indexes = dependencyParameters(route).map(({ index }) => index);
  const readAt: number[] = [];
  const readers: SyncExtractor[] = [];
  const routePathParams = pathParams(route.path);
  steps.forEach((step, i) => {
    if (step.kind !== 'read') return;
    const { owner, param, designType } = step.read;
    const label = `${owner.name}.constructor`;
    readAt.push(i);
    readers.push(param.kind === 'request' ? (request) => request : valueExtractor({ label, path: route.path, pathParams: routePathParams, params: [], designTypes: [] }, param, designType));
  });

  const run = (scope: RequestScope, request: Request, from: number): void | Promise<void> => {
    const { values, created } = scope;
    for (let i = from; i < steps.length; i++) {
      const step = steps[i];
      if (step.kind === 'value') values[i] = step.value;
      else if (step.kind === 'request') values[i] = request;
      else if (step.kind === 'given') created.push((values[i] = step.value));
      else if (step.kind === 'make') {
        const args = new Array(step.args.length);
        for (let a = 0; a < args.length; a++) args[a] = values[step.args[a]];
        const made = step.make(args);
        if (isThenable(made)) {
          return Promise.resolve(made).then((value) => {
            created.push((values[i] = value));
            return run(scope, request, i + 1);
          });
        }
        created.push((values[i] = made));
      }
    }
  };

  return {
    size: steps.length,
    fill(scope, request) {
      if (readers.length) {
        const details: ValidationDetail[] = [];
        for (let r = 0; r < readers.length; r++) scope.values[readAt[r]] = readers[r](request, details);
        if (details.length) throw requestValidationFailure(details);
      }
      return run(scope, request, 0);
    },
    place(scope, args) {
      for (let d = 0; d < indexes.length; d++) args[indexes[d]] = scope.values[plan.roots[d]];
    },
  };
}
