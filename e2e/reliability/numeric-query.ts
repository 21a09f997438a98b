import { Agent } from 'node:http';
import { probeDuring } from './probe';
import { timedRequest } from '../support/timed-request';

/** Fits in the 16 KiB limit for the request line and headers with room for the rest of the request. */
export const QUERY_VALUE_LENGTH = 16 * 1024 - 256;
const hostile = `/products/search?q=a&min_price=${'1'.repeat(QUERY_VALUE_LENGTH - 1)}x`;
const normal = `/products/search?q=a&min_price=${'1'.repeat(20)}x`;

export interface QueryFigures {
  valueLength: number;
  status: string;
  /** Longest probe latency minus the baseline, over `runs` hostile requests, in ms. */
  blockMs: number;
  /** Mean client-measured response time of the hostile and of a 21-character value, sequential on one connection. */
  hostileMeanMs: number;
  normalMeanMs: number;
  repeats: number;
}

async function meanMs(port: number, path: string, repeats: number, timeoutMs: number): Promise<{ mean: number; statuses: Set<string> }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let total = 0;
  const statuses = new Set<string>();
  for (let i = 0; i < repeats; i++) {
    const outcome = await timedRequest(port, { method: 'GET', path }, timeoutMs, agent);
    total += outcome.ms;
    statuses.add(outcome.status ? String(outcome.status) : (outcome.error ?? 'no answer'));
  }
  agent.destroy();
  return { mean: total / repeats, statuses };
}

/**
 * The 16 KiB numeric-looking query value. The probe cannot resolve a block much below a millisecond, so the
 * server's added cost is also measured as the difference of mean response times (hostile minus normal value).
 * When one hostile request takes over 100 ms, 3 repeats are enough (and keep the phase short).
 */
export async function numericQuery(port: number, baselineMs: number, runs = 3, repeats = 20, timeoutMs = 30_000): Promise<QueryFigures> {
  let blockMs = 0;
  const statuses = new Set<string>();
  for (let run = 0; run < runs; run++) {
    const { result, longestMs } = await probeDuring(port, () => timedRequest(port, { method: 'GET', path: hostile }, timeoutMs));
    statuses.add(result.status ? String(result.status) : (result.error ?? 'no answer'));
    blockMs = Math.max(blockMs, longestMs - baselineMs);
  }
  const count = blockMs > 100 ? 3 : repeats;
  const normalRun = await meanMs(port, normal, count, timeoutMs);
  const hostileRun = await meanMs(port, hostile, count, timeoutMs);
  for (const status of hostileRun.statuses) statuses.add(status);
  return {
    valueLength: QUERY_VALUE_LENGTH,
    status: [...statuses].join(', '),
    blockMs,
    hostileMeanMs: hostileRun.mean,
    normalMeanMs: normalRun.mean,
    repeats: count,
  };
}
