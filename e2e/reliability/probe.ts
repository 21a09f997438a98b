import { Agent } from 'node:http';
import { percentile } from './load';
import { timedRequest } from '../support/timed-request';

const PROBE = { method: 'GET', path: '/tasks/1' };

/** Median latency of `count` back-to-back cheap requests on one keep-alive connection, in ms. */
export async function probeBaseline(port: number, count = 200): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) latencies.push((await timedRequest(port, PROBE, 5_000, agent)).ms);
  agent.destroy();
  return percentile(latencies, 50);
}

export interface Probed<T> {
  result: T;
  /** The longest probe latency over the action's lifetime, in ms. */
  longestMs: number;
}

/**
 * Runs `action` while a separate keep-alive client sends a cheap GET back to back. Any time the server's event
 * loop is blocked shows up as one probe waiting that long, so the longest probe latency minus the baseline is
 * the longest block. Probes that started before the action ended count; each waits at most `probeTimeoutMs`.
 */
export async function probeDuring<T>(port: number, action: () => Promise<T>, probeTimeoutMs = 70_000): Promise<Probed<T>> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let running = true;
  let longestMs = 0;
  const loop = (async () => {
    while (running) {
      const outcome = await timedRequest(port, PROBE, probeTimeoutMs, agent);
      longestMs = Math.max(longestMs, outcome.ms);
      // A refused probe returns at once: do not spin on a dead server.
      if (outcome.status === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 20));
  const result = await action();
  running = false;
  // The probe in flight when the action ended also counts (it may have waited on the same block), for up to
  // 5 s more; then the connection is cut so that a hung server cannot hang the harness.
  await Promise.race([loop, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  agent.destroy();
  await loop;
  return { result, longestMs };
}
