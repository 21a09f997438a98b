import { bodyShapes, type ShapeFigures } from './body-shapes';
import { crashLoop } from './crash-loop';
import { addHostileRouter } from './hostile-router';
import { numericQuery } from './numeric-query';
import { probeBaseline } from './probe';
import { addSlowRouter } from './shutdown';
import { slowReaders, slowReaderWaitSeconds } from './slow-readers';
import { uploads } from './uploads';
import { alive, type ExitLog } from '../support/exit-log';
import { createSampleProject, runProject, type RunningApp } from '../support/sample-server';
import { sleep } from '../support/timed-request';

const fmt = (n: number, digits = 1) => n.toFixed(digits);
type Row = [figure: string, measured: string, target: string];

/** SIGTERM, and SIGKILL if the process is still there after 12 s (a blocked event loop never sees the signal). */
async function stopBounded(app: RunningApp): Promise<void> {
  if (!alive(app)) return;
  const stopped = app.stop('SIGTERM');
  const late = await Promise.race([stopped.then(() => false), sleep(12_000).then(() => true)]);
  if (late) {
    app.child.kill('SIGKILL');
    await stopped;
  }
}

/** Runs `measure` on a fresh `trellis run`, bounded by `limitMs`; a failure or timeout becomes the row text. */
async function onFreshApp<T>(
  dir: string,
  args: string[],
  label: string,
  exits: ExitLog,
  limitMs: number,
  measure: (app: RunningApp) => Promise<T>,
): Promise<T | string> {
  let app: RunningApp | undefined;
  try {
    app = exits.watch(await runProject(dir, args), label);
    const running = app;
    const timedOut = sleep(limitMs).then(() => `timed out after ${fmt(limitMs / 1000, 0)} s`);
    return await Promise.race([measure(running), timedOut]);
  } catch (error) {
    return `failed: ${(error as Error).message.split('\n')[0]}`;
  } finally {
    if (app) await stopBounded(app);
  }
}

function shapeRow(shape: ShapeFigures): Row {
  const skipped = shape.skipped ? ` (${shape.skipped} more runs skipped: the first blocked > 2 s)` : '';
  // A run that timed out or crashed the server ended the probe early: the block was at least that long.
  const cut = shape.outcomes.some((o) => o.startsWith('timeout') || o.startsWith('crashed'));
  return [
    `hostile: 1 MiB JSON, ${shape.name}, to POST ${shape.path}: longest event-loop block; statuses`,
    `${cut ? 'at least ' : ''}${fmt(shape.blockMs)} ms; ${shape.outcomes.join(', ')}${skipped}`,
    '< 50 ms',
  ];
}

/**
 * The hostile phase: single requests that could crash, stall or exhaust the server (issue 10), each on a fresh
 * sample project served by `trellis run`. Every case is bounded in time; a crash or timeout is reported as such.
 */
export async function hostile(exits: ExitLog): Promise<Row[]> {
  const project = createSampleProject();
  addSlowRouter(project.dir);
  addHostileRouter(project.dir);
  const rows: Row[] = [];
  try {
    let app: RunningApp | undefined;
    let baselineMs = 0;
    const ensureServer = async () => {
      if (!app || !alive(app)) {
        app = exits.watch(await runProject(project.dir), 'hostile: body shapes and query');
        baselineMs = await probeBaseline(app.port);
      }
      const current = app;
      const discard = async () => {
        app = undefined;
        await stopBounded(current);
      };
      return { port: current.port, baselineMs, alive: () => alive(current), discard };
    };
    try {
      for (const shape of await bodyShapes(ensureServer)) rows.push(shapeRow(shape));
      const server = await ensureServer();
      const q = await numericQuery(server.port, server.baselineMs);
      rows.push([
        `hostile: ${q.valueLength.toLocaleString('en')}-character numeric-looking query value (/products/search?min_price=11...1x): longest block (probe); mean response time, hostile vs a 21-character value (${q.repeats} sequential requests each); statuses`,
        `${fmt(q.blockMs)} ms; ${fmt(q.hostileMeanMs, 2)} vs ${fmt(q.normalMeanMs, 2)} ms (+${fmt(q.hostileMeanMs - q.normalMeanMs, 2)} ms); ${q.status}`,
        '< 1 ms',
      ]);
      rows.push(['hostile: probe baseline (median of 200 back-to-back GET /tasks/1 on one connection)', `${fmt(baselineMs, 2)} ms`, '']);
    } catch (error) {
      rows.push(['hostile: body shapes and query', `failed: ${(error as Error).message.split('\n')[0]}`, '']);
    } finally {
      if (app) await stopBounded(app);
    }

    const waitSeconds = slowReaderWaitSeconds();
    const slow = await onFreshApp(project.dir, [], 'hostile: slow readers', exits, (waitSeconds + 60) * 1000, (a) => slowReaders(a));
    if (typeof slow === 'string') rows.push(['hostile: slow readers', slow, '']);
    else {
      rows.push([
        `hostile: ${slow.clients} clients never reading a ${fmt(slow.responseBytes / 1e6)} MB JSON response: RSS before -> peak (sampled every 100 ms)`,
        `${fmt(slow.rssBeforeMiB)} -> ${fmt(slow.rssPeakMiB)} MiB (+${fmt(slow.rssPeakMiB - slow.rssBeforeMiB)} MiB)`,
        '',
      ]);
      rows.push([
        'hostile: slow readers: the server closed their connections',
        slow.allClosedAfterSeconds === null
          ? `no: ${slow.stillOpen} of ${slow.clients} still open after ${slow.waitedSeconds} s`
          : `all, ${fmt(slow.allClosedAfterSeconds)} s after the requests`,
        'all, by the write timeout',
      ]);
    }

    const up = await onFreshApp(project.dir, [], 'hostile: uploads', exits, 120_000, (a) => uploads(a));
    rows.push(
      typeof up === 'string'
        ? ['hostile: concurrent uploads', up, '']
        : [
            `hostile: ${up.uploads} concurrent ${up.fileMiB} MiB uploads to POST /upload/file: RSS before -> peak (growth); statuses`,
            `${fmt(up.rssBeforeMiB)} -> ${fmt(up.rssPeakMiB)} MiB (+${fmt(up.rssPeakMiB - up.rssBeforeMiB)} MiB); ${up.statuses}`,
            '< 250 MiB growth',
          ],
    );

    const crash = await onFreshApp(project.dir, ['--workers', '2'], 'hostile: crash loop (primary)', exits, 90_000, (a) => crashLoop(a));
    if (typeof crash === 'string') rows.push(['crash loop (--workers 2)', crash, '']);
    else {
      rows.push([
        `crash loop (--workers 2): ${crash.crashesConfirmed} of ${crash.crashesWanted} crashes in ${fmt(crash.crashSeconds)} s (asked every 300 ms, ${crash.crashesAsked} asked, ${crash.workerExits} worker exits logged) under 8 clients (refused retried after 100 ms), ${crash.requests} requests, ${crash.ok} answered: refused / never answered (10 s) / in flight and reset / 5xx`,
        `${crash.refused} / ${crash.neverAnswered} / ${crash.reset} / ${crash.fiveXX}`,
        // Refused while no worker is up (both crashed, the next waits its backoff) and reset when cut after the
        // crash's 1 s grace are the cost of crashing; none may hang and none may be a 5xx.
        'counted / 0 / counted / 0',
      ]);
      rows.push(['crash loop: connections left open 1 s after every client closed', String(crash.leftOpen), '0']);
      rows.push([
        'crash loop: service fully back (20 requests in a row answered, by both workers); primary alive',
        `${crash.backAfterSeconds === null ? 'no, not within 20 s' : `yes, ${fmt(crash.backAfterSeconds)} s after the last crash`}; ${crash.primaryAlive ? 'yes' : 'no'}`,
        'yes; yes',
      ]);
    }
  } finally {
    project.remove();
  }
  return rows;
}
