import type { Token } from './token';

const injected = new WeakMap<Function, Map<number, Token>>();

/**
 * Names what a constructor parameter receives, instead of its TypeScript type: needed for interfaces,
 * primitives and anything provided under a token.
 *
 * @example
 * ```ts
 * @Injectable()
 * class NoteService {
 *   constructor(@Inject(DB_POOL) private readonly pool: Pool, @Inject('NOTES_LIMIT') private readonly limit: number) {}
 * }
 * app.provide({ provide: DB_POOL, useFactory: async (config: Config) => connect(config.string('db.url')), inject: [Config] });
 * ```
 */
export function Inject(token: Token): ParameterDecorator {
  return (target, propertyKey, index) => {
    // Constructor parameters only: on a method, `target` is the prototype and `propertyKey` the method.
    if (propertyKey !== undefined) return;
    const map = injected.get(target as Function) ?? new Map<number, Token>();
    map.set(index, token);
    injected.set(target as Function, map);
  };
}

/** The `@Inject` tokens of `cls`'s constructor parameters, by position (its own, not its base class's). */
export function injectedTokens(cls: Function): ReadonlyMap<number, Token> | undefined {
  return injected.get(cls);
}
