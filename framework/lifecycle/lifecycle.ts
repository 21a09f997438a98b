import type { Logger } from '../core/logger';
import { TrellisError } from '../framework-error';
import type { Readiness } from '../health/readiness';
import { runShutdownHooks, runStartupHooks, startupFailure } from './hooks';
import { checkReadiness } from './readiness';
import type { AppState } from './state';

/** What an app's start builds: what may have hooks (in startup order), and what to do once their hooks ran. */
export interface Built {
  targets: unknown[];
  serve(): void;
}

/**
 * The life of one app: its state, the one start (build, then startup hooks), draining, the one stop (shutdown
 * hooks in reverse) and the health checks of what it built.
 */
export class Lifecycle {
  #state: AppState = 'setting-up';
  #starting: Promise<void> | undefined;
  #stopping: Promise<boolean> | undefined;
  #targets: unknown[] = [];
  /** Those whose startup hook ran (or that have none), in order: what a stop shuts down. */
  readonly #started: unknown[] = [];
  /** Each health check's last state, so that only changes are logged. */
  readonly #checkStates = new Map<string, 'up' | 'down'>();

  constructor(private readonly logger: Logger) {}

  get state(): AppState {
    return this.#state;
  }

  /** Runs `build` and the startup hooks once; later calls return the same promise. */
  start(build: () => Promise<Built>): Promise<void> {
    return (this.#starting ??= this.#start(build));
  }

  drain(): void {
    if (this.#state === 'ready' || this.#state === 'starting') this.#state = 'draining';
  }

  stop(timeoutMs: number): Promise<boolean> {
    return (this.#stopping ??= this.#stop(timeoutMs));
  }

  readiness(timeoutMs: number): Promise<Readiness> {
    return checkReadiness(this.#targets, timeoutMs, this.logger, this.#checkStates);
  }

  async #start(build: () => Promise<Built>): Promise<void> {
    this.#state = 'starting';
    try {
      const built = await build();
      this.#targets = built.targets;
      await runStartupHooks(built.targets, this.logger, this.#started);
      built.serve();
      if (this.#state === 'starting') this.#state = 'ready';
    } catch (error) {
      this.#state = 'stopped';
      await runShutdownHooks(this.#started, this.logger, performance.now() + 10_000);
      throw error instanceof TrellisError ? error : startupFailure('starting the app', error);
    }
  }

  async #stop(timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    this.drain();
    if (this.#starting) await this.#starting.catch(() => {});
    const finished = await runShutdownHooks(this.#started, this.logger, deadline);
    this.#state = 'stopped';
    return finished;
  }
}
