import type { AppState } from '../lifecycle/state';

/** What `/readyz` answers from: the app's state and its health checks. */
export interface ReadinessSource {
  readonly state: AppState;
  /** Runs every `healthCheck()` (each within `timeoutMs`): by the name of its class, `'up'` or `'down'`. */
  readiness(timeoutMs: number): Promise<Readiness>;
}

/** The outcome of the app's health checks. */
export interface Readiness {
  ready: boolean;
  checks: Record<string, 'up' | 'down'>;
}
