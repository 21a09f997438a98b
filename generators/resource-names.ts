import { GeneratorError } from './generator-error';
import { artifactNames, pascalCase, snakeCase, words } from './names';

/** The names one `trellis add resource <name>` derives: the name as given names the files, path and table. */
export interface ResourceNames {
  /** `order_items`: routers/order_items.ts, tests/order_items.test.ts, the table. */
  stem: string;
  /** `/order-items`. */
  basePath: string;
  /** `order items`, for prose. */
  label: string;
  /** `OrderItemsRouter`. */
  routerClass: string;
  /** `OrderItemsService`, in services/order_items_service.ts. */
  serviceClass: string;
  serviceStem: string;
  /** One record, singular: `OrderItem` (with `OrderItemIn`, `OrderItemPage`, `OrderItemTable`). */
  entity: string;
  /** `order item`, for prose. */
  entityLabel: string;
  /** The path parameter, `order_item_id`, and the path of one record, `/{order_item_id}`. */
  idParam: string;
  itemPath: string;
  /** The router's field holding the service: `orderItems`. */
  property: string;
}

// What the generated router and service import: an entity of one of these names would clash.
const IMPORTED = ['Body', 'Delete', 'Get', 'HTTPException', 'Injectable', 'Int', 'Kysely', 'Path', 'Post', 'Put', 'Query', 'Tables'];

/**
 * Derives the names of `trellis add resource <name>`: the name as given for files, path and table (`notes`), its
 * last word made singular for the record's types (`Note`: `-ies` -> `-y`, `-sses`/`-xes`/`-ches`/`-shes` lose
 * `-es`, another `-s` goes (not `-ss`, `-us`, `-is`: `status` stays); a word without one stays). Throws `GeneratorError('invalid-name')`.
 *
 * @example
 * ```ts
 * resourceNames('order-items'); // { stem: 'order_items', basePath: '/order-items', entity: 'OrderItem', idParam: 'order_item_id', ... }
 * ```
 */
export function resourceNames(name: string): ResourceNames {
  const { stem, label, basePath, className } = artifactNames('router', name);
  const parts = words(stem);
  const single = [...parts.slice(0, -1), singular(parts[parts.length - 1])].join('_');
  const entity = pascalCase(single);
  if (IMPORTED.includes(entity) || entity in globalThis) {
    throw new GeneratorError('invalid-name', name, `a record named ${entity} would hide ${IMPORTED.includes(entity) ? 'an import of the router' : `the global ${entity}`}`);
  }
  const base = className.replace(/Router$/, '');
  const idParam = `${snakeCase(single)}_id`;
  return {
    stem,
    basePath,
    label,
    routerClass: className,
    serviceClass: `${base}Service`,
    serviceStem: `${stem}_service`,
    entity,
    entityLabel: words(single).join(' '),
    idParam,
    itemPath: `/{${idParam}}`,
    property: base.charAt(0).toLowerCase() + base.slice(1),
  };
}

function singular(word: string): string {
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(?:ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (/[^siu]s$/.test(word)) return word.slice(0, -1);
  return word;
}
