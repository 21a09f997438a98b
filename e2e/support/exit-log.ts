import type { RunningApp } from './sample-server';

/**
 * Records every `trellis run` process that ends without having been asked to (a crash), across a whole
 * reliability run. `watch` returns the app with a `stop` that marks the exit as expected.
 */
export class ExitLog {
  readonly unexpected: string[] = [];
  #asked = new WeakSet<object>();

  watch(app: RunningApp, label: string): RunningApp {
    app.child.on('exit', (code, signal) => {
      if (!this.#asked.has(app.child)) this.unexpected.push(`${label}: ${signal ?? `exit code ${code}`}`);
    });
    return {
      ...app,
      stop: (signal) => {
        this.#asked.add(app.child);
        return app.stop(signal);
      },
    };
  }
}

/** Whether the process has not ended yet. */
export const alive = (app: RunningApp) => app.child.exitCode === null && app.child.signalCode === null;
