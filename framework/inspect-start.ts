import { appInternals, type BaseRouter } from './app';
import type { TrellisError } from './framework-error';
import type { Class } from './core/types';
import { isMiddlewareClass } from './middleware';
import { Controller, middlewareOf } from './router';

/** What {@link dryStart} found. */
export interface DryStart {
  /** Every wiring mistake (missing or uninjectable parameters, unknown tokens, cycles), as `start()` would throw them. */
  problems: TrellisError[];
  /** What a constructor threw (a setting of the wrong kind, say), if one did. */
  failure?: unknown;
  /** The routers, middleware and services left unbuilt: they have lifecycle hooks, a factory, or depend on one. */
  skipped: Class[];
}

/**
 * Checks an app as `start()` would, without starting it: every wiring mistake, then builds what is safe to
 * build (routers, middleware and services with no lifecycle hook and no factory anywhere in what they need),
 * so that constructors reading settings report them, and the routes of the routers built show the middleware
 * their constructors add (`inspectApp`). Runs no hook and no factory: `trellis doctor` opens no connection.
 *
 * @example
 * ```ts
 * const { problems, failure, skipped } = await dryStart(app);
 * for (const problem of problems) console.log(problem.code, problem.details);
 * ```
 */
export async function dryStart(app: BaseRouter): Promise<DryStart> {
  const { container, consumers, bind } = appInternals(app);
  const classes = consumers();
  const problems = container.problems(classes);
  if (problems.length) return { problems, skipped: classes };
  const skipped = classes.filter((cls) => container.wouldRunCode([cls]));
  try {
    const built = await container.build(classes.filter((cls) => !skipped.includes(cls)), { hooked: false });
    bind(built);
    // Middleware a router adds in its constructor is known once the router is built.
    const late = [...built.values()]
      .filter((instance): instance is Controller => instance instanceof Controller)
      .flatMap((router) => middlewareOf(router))
      .filter((like): like is Class => isMiddlewareClass(like) && !built.has(like as Class));
    const lateProblems = container.problems(late);
    if (lateProblems.length) return { problems: lateProblems, skipped };
    const unsafe = late.filter((cls) => container.wouldRunCode([cls]));
    await container.build(late.filter((cls) => !unsafe.includes(cls)), { hooked: false });
    return { problems, skipped: [...skipped, ...unsafe] };
  } catch (failure) {
    return { problems, failure, skipped };
  }
}
