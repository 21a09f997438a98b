import { metadataOf, type ParamDefinition } from '../metadata';

/** A value a constructor reads from the request (`@Header`, `@Query`, `@Path`, `@Req`), with its recorded type. */
export interface RequestValue {
  /** The class whose constructor takes it. */
  owner: Function;
  param: ParamDefinition;
  /** `design:paramtypes` of the constructor at the parameter's position. */
  designType: unknown;
}

/**
 * The request values `cls`'s constructor takes, by position: its own decorators', or those of the nearest base
 * class that declares the constructor (a subclass without a constructor of its own inherits them).
 */
export function requestValuesOf(cls: Function): ReadonlyMap<number, RequestValue> | undefined {
  for (let current: Function | null = cls; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    const params = metadataOf(current).params.get('constructor');
    if (params?.length) {
      const types: unknown[] = Reflect.getMetadata('design:paramtypes', current) ?? [];
      return new Map(params.map((param) => [param.index, { owner: current!, param, designType: types[param.index] }]));
    }
    if (Reflect.hasOwnMetadata('design:paramtypes', current)) return undefined;
  }
  return undefined;
}

/** How errors and paths name a request value: `@Header('x-tenant')`, `@Req()`. */
export function requestValueLabel({ param }: RequestValue): string {
  const decorator = { path: 'Path', query: 'Query', header: 'Header', request: 'Req', body: 'Body', file: 'UploadedFile', dependency: 'Depends' }[param.kind];
  return param.name === undefined ? `@${decorator}()` : `@${decorator}('${param.name}')`;
}
