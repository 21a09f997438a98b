// `npm run reliability`: the hardening figures on a fresh sample project started by `trellis run`.
// Prints a markdown table (pasted into docs/reference/reliability.md). Takes about 5 minutes;
// `npm run reliability -- hostile` runs only the hostile phase (about 3-4 minutes), `-- attacks` only the second
// attack round's (e2e/reliability/attacks.ts).
import { ExitLog } from '../support/exit-log';
import { createSampleProject, runProject } from '../support/sample-server';
import { attacks } from './attacks';
import { hostile } from './hostile';
import { addSlowRouter, shutdown } from './shutdown';
import { slowloris } from './slowloris';
import { soak } from './soak';

const fmt = (n: number, digits = 1) => n.toFixed(digits);

async function hardening(exits: ExitLog): Promise<string[][]> {
  const project = createSampleProject();
  addSlowRouter(project.dir);
  try {
    const app = exits.watch(await runProject(project.dir), 'soak and slowloris');
    const s = await soak(app);
    const l = await slowloris(app);
    await app.stop();
    const g = await shutdown(project.dir);
    return [
      ['soak: requests / concurrency / malformed share', `${s.requests} / ${s.concurrency} / ${fmt(s.malformedShare * 100, 0)} %`, ''],
      ['soak: 5xx responses', String(s.fiveXX), '0'],
      ['soak: connection errors on valid requests', String(s.validConnectionErrors), '0'],
      ['soak: responses with an unexpected status', String(s.unexpectedStatuses), '0'],
      ['soak: RSS at 10k -> 100k requests', `${fmt(s.rssAt10k)} -> ${fmt(s.rssAt100k)} MiB (${fmt(s.rssAt100k - s.rssAt10k)} MiB)`, '< 30 MiB growth'],
      ['soak: duration', `${fmt(s.seconds)} s (${Math.round(s.requests / s.seconds)} req/s incl. the client)`, ''],
      ['shutdown: in flight at SIGTERM -> completed with 200', `${g.inFlight} -> ${g.completedWith200}`, 'all'],
      ['shutdown: new connection after SIGTERM refused', String(g.refusedAfterSignal), 'true'],
      ['shutdown: exit code, time from SIGTERM to exit', `${g.exitCode}, ${fmt(g.secondsToExit, 2)} s`, '0, < 10 s'],
      ['slowloris: sockets trickling headers', String(l.sockets), ''],
      ['slowloris: normal client p99, baseline -> under attack', `${fmt(l.baselineP99, 2)} -> ${fmt(l.underAttackP99, 2)} ms`, '< 2x baseline'],
      ['slowloris: all closed (headersTimeout 30 s, checked every 1 s)', `${l.allClosed}, the last ${fmt(l.secondsToCloseAll)} s after opening`, 'true'],
    ];
  } finally {
    project.remove();
  }
}

/** Every phase bounds its own waits; this is the last resort against a hang nobody foresaw. */
const WATCHDOG_MINUTES = 20;

async function main(): Promise<void> {
  setTimeout(() => {
    console.error(`reliability: still running after ${WATCHDOG_MINUTES} minutes; giving up`);
    process.exit(1);
  }, WATCHDOG_MINUTES * 60_000).unref();
  const exits = new ExitLog();
  const only = process.argv.slice(2).find((arg) => arg === 'hostile' || arg === 'attacks');
  const rows = only ? [] : await hardening(exits);
  if (only !== 'attacks') rows.push(...(await hostile(exits)));
  if (only !== 'hostile') rows.push(...(await attacks(exits)));
  const unexpected = exits.unexpected.length === 0 ? '0' : `${exits.unexpected.length} (${exits.unexpected.join('; ')})`;
  rows.push([`trellis run processes that exited unasked over the ${only ? `${only} phase` : 'whole run'}`, unexpected, '0']);
  console.log('| figure | measured | target |\n|---|---|---|');
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  // A measurement given up on (its time limit passed) may still hold sockets or timers.
  process.exit();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
