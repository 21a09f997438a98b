import type { Problem } from 'trellis/internal';

export type Severity = 'error' | 'warning';

/** One thing doctor found: `code` is the framework's (`TRELLIS_ERR_...`) or doctor's own (`shadowed-route`). */
export interface Finding extends Partial<Problem> {
  severity: Severity;
  code: string;
  message: string;
}

/** A row of the route table. */
export interface RouteRow {
  method: string;
  path: string;
  /** `TaskRouter.list` */
  handler: string;
  /** Relative to the project, with `/` (absolute outside it); absent for the framework's own routes. */
  file?: string;
  line?: number;
  /** A route the framework adds (docs pages, static files, the favicon), configured rather than declared. */
  builtIn?: boolean;
}

export interface RouterRow {
  name: string;
  file: string;
  line: number;
  routes: number;
  /** The framework refused to include it (the reason is among the errors). */
  rejected: boolean;
}

/** A WebSocket gateway of `routers/`: where it is served, what guards its upgrade, the messages it answers. */
export interface GatewayRow {
  /** `/ws/rooms/{room}` */
  path: string;
  /** The class's name. */
  name: string;
  /** Relative to the project, with `/`. */
  file: string;
  line: number;
  /** The guards' names (`@Use` on the class), in the order they run on the upgrade request. */
  guards: string[];
  /** The events of its `@OnMessage` handlers. */
  events: string[];
  /** The framework refused it (the reason is among the errors). */
  rejected: boolean;
}

export interface OpenApiResult {
  /** False when the framework cannot produce a document (no `app.openapi()`), or the app could not be built. */
  checked: boolean;
  valid?: boolean;
  version?: string;
  operations?: number;
}

/** A body DTO class that keeps class-validator at request time (its rules are not compiled), and why. */
export interface ValidationRow {
  model: string;
  /** One line: `TaskIn.slug: custom constraint IsSlug`. */
  reason: string;
  /** Relative to the project, with `/`, when a `routers/` file exports the class. */
  file?: string;
  line?: number;
}

/** Everything `trellis doctor` reports; `--json` prints it as is. */
export interface DoctorReport {
  project: string;
  /** Relative to the project; null without a config.yaml (defaults). */
  config: string | null;
  routers: RouterRow[];
  routes: RouteRow[];
  /** The WebSocket gateways of `routers/` (empty without any). */
  gateways: GatewayRow[];
  errors: Finding[];
  warnings: Finding[];
  openapi: OpenApiResult;
  /** The body DTO classes validated by class-validator rather than by compiled rules (usually none). */
  validation: ValidationRow[];
  summary: { routers: number; routes: number; errors: number; warnings: number };
}

/** An error finding from a located problem. */
export function errorAt(problem: Problem, code = problem.code ?? 'error'): Finding {
  return { severity: 'error', ...problem, code };
}
