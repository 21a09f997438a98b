import { rmSync } from 'node:fs';

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Runs `work` with `path` (a temporary folder) removed if the process is interrupted meanwhile: the
 * handler deletes it, then raises the signal again so the process ends as it would have.
 */
export async function removedOnSignal<T>(path: string, work: () => Promise<T>): Promise<T> {
  const onSignal = (signal: NodeJS.Signals) => {
    detach();
    rmSync(path, { recursive: true, force: true });
    process.kill(process.pid, signal);
  };
  const detach = () => {
    for (const signal of SIGNALS) process.off(signal, onSignal);
  };
  for (const signal of SIGNALS) process.once(signal, onSignal);
  try {
    return await work();
  } finally {
    detach();
  }
}
