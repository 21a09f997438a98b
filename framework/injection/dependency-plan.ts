import type { RequestValue } from './request-values';

/**
 * One thing a route's request-scoped dependencies need, in the order they are made (what a step takes comes
 * before it): a singleton built at startup, the request, a value read from it, a value standing for a
 * request-scoped provider (an override), or a class or factory to call once per request.
 */
export type PlanStep =
  | { kind: 'value'; value: unknown }
  | { kind: 'request' }
  | { kind: 'read'; read: RequestValue }
  | { kind: 'given'; value: unknown }
  | { kind: 'make'; label: string; make: (args: unknown[]) => unknown; args: number[] };

/** What the container tells a route about its `@Depends()` parameters: the steps, and the step of each parameter. */
export interface DependencyPlan {
  steps: PlanStep[];
  /** The step giving each requested dependency, in the order they were asked for. */
  roots: number[];
}
