import { metadataOf } from '../metadata';
import { Inject } from '../injection/inject';
import type { Token } from '../injection/token';

/**
 * Gives a handler parameter what the container provides for `token` (by default the parameter's declared
 * class), as FastAPI's `Depends`: a request-scoped provider (`@Injectable({ scope: 'request' })`, or
 * `{ provide, scope: 'request', ... }`) is made at most once per request, shared with the other request-scoped
 * providers of that request, and its `onRequestEnd(outcome)` runs once the response is ready; a singleton is
 * given as is. The headers and query values a dependency reads are validated (a 422) and documented as the
 * route's parameters. On a constructor parameter it is `@Inject(token)`.
 *
 * @example
 * ```ts
 * @Post('/') create(@Body() body: TaskIn, @Depends() uow: UnitOfWork, @Depends(TENANT) tenant: string) {
 *   return uow.tasks.create(tenant, body);
 * }
 * ```
 */
export function Depends(token?: Token): ParameterDecorator {
  return (target, handler, index) => {
    if (handler === undefined) {
      if (token !== undefined) Inject(token)(target, handler, index);
      return;
    }
    const params = metadataOf(target.constructor).params;
    params.set(handler, [...(params.get(handler) ?? []), { kind: 'dependency', index, token, hasDefault: false }]);
  };
}
