import type { Class, SourceLocation } from '../../core/types';
import type { MethodTypes, TypeTable } from '../../source/types/table';
import { messageHandlersOf, type MessageHandler } from '../on-message';

/** What the gateways' sources say of their handlers: the types table, and the file each handler's class is in. */
export interface GatewayTypes {
  table: TypeTable | undefined;
  files: ReadonlyMap<Function, string>;
}

/**
 * The return types of the `@OnMessage` handlers of `gateways`: `given` (a table such as a build's), none with
 * `false`, else read from their TypeScript sources as the OpenAPI document reads the routes' (see
 * `readSourceTypes`; none when no file has a source or the compiler is not installed). A handler's file is where its
 * decorator ran when the decorator recorded it, else the file of the loaded module exporting the class that declares
 * it (where `trellis run` found the gateway).
 */
export function gatewayTypes(gateways: readonly Class[], given?: TypeTable | false): GatewayTypes {
  const files = new Map<Function, string>();
  if (given === false) return { table: undefined, files };
  for (const cls of gateways) {
    for (const handler of messageHandlersOf(cls).values()) {
      const owner = declaringClass(cls, handler.method);
      const file = (handler as MessageHandler & { source?: SourceLocation }).source?.file ?? exportingFile(owner);
      if (file !== undefined) files.set(owner, file);
    }
  }
  if (given || !files.size) return { table: given, files };
  // Loaded on first use: TypeScript is not needed to serve the gateways.
  const { readSourceTypes } = require('../../source/types/read') as typeof import('../../source/types/read');
  return { table: readSourceTypes([...new Set(files.values())]), files };
}

/** The facts of `cls`'s handler `method`: in the file of the class that declares it, under that class's name. */
export function handlerTypes(types: GatewayTypes, cls: Class, method: string | symbol): MethodTypes | undefined {
  if (typeof method !== 'string' || !types.table) return undefined;
  const owner = declaringClass(cls, method);
  const file = types.files.get(owner);
  const methods = file !== undefined && Object.hasOwn(types.table.files, file) ? types.table.files[file] : undefined;
  const key = `${owner.name}.${method}`;
  return methods && Object.hasOwn(methods, key) ? methods[key] : undefined;
}

function declaringClass(cls: Class, method: string | symbol): Function {
  for (let current: Function = cls; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    if (Object.hasOwn(current.prototype, method)) return current;
  }
  return cls;
}

// The project's loaded modules only: a package's exports may be lazy getters that load more of it, and so may a
// module entry whose `exports` is an accessor (a built app's shared modules).
function exportingFile(cls: Function): string | undefined {
  for (const module of Object.values(require.cache)) {
    if (!module?.loaded || /[\\/]node_modules[\\/]/.test(module.filename) || Object.getOwnPropertyDescriptor(module, 'exports')?.get) continue;
    const exported = module.exports as unknown;
    if (exported === cls) return module.filename;
    if (exported === null || typeof exported !== 'object') continue;
    for (const key of Object.keys(exported)) {
      try {
        if ((exported as Record<string, unknown>)[key] === cls) return module.filename;
      } catch {
        // a getter that throws exports nothing we look for
      }
    }
  }
  return undefined;
}
