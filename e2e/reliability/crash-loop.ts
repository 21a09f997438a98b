import { alive } from '../support/exit-log';
import { openServerConnections } from '../support/process-stats';
import type { RunningApp } from '../support/sample-server';
import { sleep, timedRequest, type TimedOutcome } from '../support/timed-request';

export interface CrashLoopFigures {
  crashesWanted: number;
  /** `GET /hostile/crash` requests sent (a refused one is sent again). */
  crashesAsked: number;
  /** From the first crash request to the last one answered (or to the limit). */
  crashSeconds: number;
  /** `GET /hostile/crash` requests that were answered, so a worker crashed right after. */
  crashesConfirmed: number;
  /** "worker ... exited" lines the primary printed during the test. */
  workerExits: number;
  requests: number;
  ok: number;
  refused: number;
  /** In flight when their worker died: the connection was reset or closed without an answer. */
  reset: number;
  /** No answer within the client timeout. */
  neverAnswered: number;
  /** Answered with a 5xx. */
  fiveXX: number;
  /** Server-side connections still ESTABLISHED/CLOSE_WAIT 1 s after every client closed. */
  leftOpen: number;
  /** Seconds after the last crash until 20 requests in a row succeed and both workers answered; null if never. */
  backAfterSeconds: number | null;
  primaryAlive: boolean;
}

const RESET = new Set(['ECONNRESET', 'socket hang up', 'aborted', 'EPIPE']);

/**
 * `crashes` worker crashes, one asked every `intervalMs`, on `trellis run --workers 2` while `clients` normal
 * clients (a new connection per request, alternating a quick GET and a 300 ms one; a refused one retried after
 * 100 ms) keep sending. Every client request waits at most `clientTimeoutMs`.
 */
export async function crashLoop(
  app: RunningApp,
  crashes = 10,
  intervalMs = 300,
  crashLimitMs = 15_000,
  clients = 8,
  clientTimeoutMs = 10_000,
): Promise<CrashLoopFigures> {
  const port = app.port;
  const exitsBefore = workerExitLines(app);
  const outcomes: TimedOutcome[] = [];
  let sending = true;
  const client = async (id: number) => {
    for (let i = 0; sending; i++) {
      const path = (i + id) % 2 === 0 ? '/tasks/1' : '/slow?ms=300';
      const outcome = await timedRequest(port, { method: 'GET', path }, clientTimeoutMs);
      outcomes.push(outcome);
      if (outcome.error === 'ECONNREFUSED') await sleep(100); // a client retrying a refused connection
    }
  };
  const clientsDone = Promise.all(Array.from({ length: clients }, (_, id) => client(id)));
  await sleep(500);
  // A crash request refused while no worker serves crashes nothing: ask again at the next tick, until
  // `crashes` were answered (each answer means a worker crashes 20 ms later) or `crashLimitMs` passed.
  const crashOutcomes: TimedOutcome[] = [];
  let pending = 0;
  const crashesStarted = performance.now();
  while (performance.now() - crashesStarted < crashLimitMs) {
    const confirmed = crashOutcomes.filter((o) => o.status === 200).length;
    if (confirmed >= crashes) break;
    if (confirmed + pending < crashes) {
      pending++;
      void timedRequest(port, { method: 'GET', path: '/hostile/crash' }, clientTimeoutMs).then((outcome) => {
        pending--;
        crashOutcomes.push(outcome);
      });
    }
    await sleep(intervalMs);
  }
  const crashSeconds = (performance.now() - crashesStarted) / 1000;
  const lastCrash = performance.now();
  const back = serviceBack(port, 20_000);
  await sleep(1_000);
  sending = false;
  await clientsDone;
  while (pending > 0) await sleep(50); // each settles within the client timeout
  const backAt = await back;
  await sleep(1_000);
  const leftOpen = openServerConnections(port);
  return {
    crashesWanted: crashes,
    crashesAsked: crashOutcomes.length,
    crashSeconds,
    crashesConfirmed: crashOutcomes.filter((o) => o.status === 200).length,
    workerExits: workerExitLines(app) - exitsBefore,
    requests: outcomes.length,
    ok: outcomes.filter((o) => o.status > 0 && o.status < 500).length,
    refused: outcomes.filter((o) => o.error === 'ECONNREFUSED').length,
    reset: outcomes.filter((o) => o.error !== undefined && RESET.has(o.error)).length,
    neverAnswered: outcomes.filter((o) => o.error === 'timeout').length,
    fiveXX: outcomes.filter((o) => o.status >= 500).length,
    leftOpen,
    backAfterSeconds: backAt === null ? null : (backAt - lastCrash) / 1000,
    primaryAlive: alive(app),
  };
}

function workerExitLines(app: RunningApp): number {
  return (app.output().match(/worker \d+ exited/g) ?? []).length;
}

/** When 20 requests in a row succeeded and came from 2 different processes (ms timestamp), or null. */
async function serviceBack(port: number, limitMs: number): Promise<number | null> {
  const started = performance.now();
  const recent: number[] = [];
  while (performance.now() - started < limitMs) {
    const outcome = await timedRequest(port, { method: 'GET', path: '/hostile/pid' }, 2_000);
    if (outcome.status !== 200) {
      recent.length = 0;
      await sleep(50);
      continue;
    }
    recent.push((JSON.parse(outcome.text) as { pid: number }).pid);
    if (recent.length >= 20 && new Set(recent.slice(-20)).size >= 2) return performance.now();
  }
  return null;
}
