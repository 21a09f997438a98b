import 'reflect-metadata';
import { getMetadataStorage } from 'class-validator';
import { TrellisError } from '../framework-error';
import type { Class } from '../core/types';
import { transformer } from './declared-shape';

// `__proto__`: a JSON body holding the key is refused (400), so the property could never be set. `constructor`: an
// own `constructor` hides the instance's class from class-validator, which looks its rules up by `object.constructor`.
const REFUSED = new Set(['__proto__', 'constructor']);

/**
 * Throws `TRELLIS_ERR_DTO_PROPERTY_NAME` when `cls`, or a class it nests, declares a property named `__proto__` or
 * `constructor`, or reads one from such a JSON key (`@Expose({ name: '__proto__' })`). Other names, `toString` or
 * `hasOwnProperty` included, validate like any.
 *
 * @example
 * ```ts
 * assertPropertyNames(TaskIn, 'TaskRouter.create'); // throws for `@IsString() ['constructor']!: string`
 * ```
 */
export function assertPropertyNames(cls: Class, handler: string, seen = new Set<Class>()): void {
  if (seen.has(cls)) return;
  seen.add(cls);
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
  for (const property of new Set(metadatas.map((metadata) => metadata.propertyName))) {
    const key = transformer.findExposeMetadata(cls, property)?.options?.name ?? property;
    const refused = REFUSED.has(property) ? property : key === '__proto__' ? key : undefined;
    if (refused) throw new TrellisError('TRELLIS_ERR_DTO_PROPERTY_NAME', handler, `${cls.name}.${property}`, refused);
    if (!metadatas.some((metadata) => metadata.propertyName === property && metadata.type === 'nestedValidation')) continue;
    const type = transformer.findTypeMetadata(cls, property)?.typeFunction();
    const nested: unknown = type ?? Reflect.getMetadata('design:type', cls.prototype, property);
    if (typeof nested === 'function' && nested !== Array && nested !== Object) assertPropertyNames(nested as Class, handler, seen);
  }
}
