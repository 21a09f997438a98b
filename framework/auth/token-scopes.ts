
/**
 * Whether the scopes a token grants (read once, see {@link grantedScopes}) hold every scope of `guard` (the
 * guard's own) and `route` (the route's `@Scopes`); matched whole, never as a prefix.
 *
 * @example
 * ```ts
 * grants(['tasks:read', 'tasks:write'], [], ['tasks:write']); // true
 * grants(['tasks:read'], [], ['tasks:write']);                // false
 * ```
 */
export function grants(granted: readonly string[], guard: readonly string[], route: readonly string[] | undefined): boolean {
  for (const scope of guard) if (!granted.includes(scope)) return false;
  if (route) for (const scope of route) if (!granted.includes(scope)) return false;
  return true;
}

/**
 * The scopes a token's claims grant: `scope` split on spaces, else `scp` (a list, or one string); none when it
 * has neither. What `jwtAuth` checks `@Scopes` against; handlers may read `request.user` with it.
 *
 * @example
 * ```ts
 * grantedScopes(request.user ?? {}); // ['tasks:read', 'tasks:write']
 * ```
 */
export function grantedScopes(payload: Readonly<Record<string, unknown>>): readonly string[] {
  const { scope, scp } = payload as { scope?: unknown; scp?: unknown };
  if (typeof scope === 'string') return scope.split(' ');
  if (Array.isArray(scp)) return scp.filter((item): item is string => typeof item === 'string');
  if (typeof scp === 'string') return scp.split(' ');
  return [];
}

/** The scopes a refused request needed: the guard's then the route's, each once (the challenge's `scope`). */
export function neededScopes(guard: readonly string[], route: readonly string[] | undefined): readonly string[] {
  return route ? [...new Set([...guard, ...route])] : guard;
}
