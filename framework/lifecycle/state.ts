/**
 * Where an app is in its life: `'setting-up'` (routers and services being added), `'starting'` (services built,
 * startup hooks running), `'ready'` (serving), `'draining'` (shutting down: requests in flight finish, `/readyz`
 * answers 503), `'stopped'` (shutdown hooks ran, or the start failed).
 *
 * @example
 * ```ts
 * await app.start();
 * app.state; // 'ready'
 * ```
 */
export type AppState = 'setting-up' | 'starting' | 'ready' | 'draining' | 'stopped';
