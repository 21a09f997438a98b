import { drive, rssMiB, type Shot } from './load';
import type { RunningApp } from '../support/sample-server';

const json = { 'content-type': 'application/json' };
const VALID: Shot[] = [
  { method: 'GET', path: '/tasks/1', malformed: false },
  { method: 'GET', path: '/products/search?q=lamp&page=1&min_price=1.5', malformed: false },
  { method: 'PUT', path: '/tasks/2', body: '{"title":"soak","completed":true}', headers: json, malformed: false },
  { method: 'GET', path: '/users/me', malformed: false },
];
const MALFORMED: Shot[] = [
  { method: 'POST', path: '/tasks', body: '{"title":', headers: json, malformed: true },
  { method: 'POST', path: '/tasks', body: '{"title":42}', headers: json, malformed: true },
  { method: 'GET', path: '/tasks/abc', malformed: true },
  { method: 'GET', path: '/products/search?page=x', malformed: true },
  { method: 'POST', path: '/tasks', body: '{"__proto__":{"a":1}}', headers: json, malformed: true },
];

export interface SoakFigures {
  requests: number;
  concurrency: number;
  malformedShare: number;
  fiveXX: number;
  validConnectionErrors: number;
  unexpectedStatuses: number;
  rssAt10k: number;
  rssAt100k: number;
  seconds: number;
}

/** 100,000 requests at concurrency 100, one in five malformed, RSS read at the 10k and 100k marks. */
export async function soak(app: RunningApp, total = 100_000, concurrency = 100): Promise<SoakFigures> {
  const pid = app.child.pid!;
  let rssAt10k = 0;
  const started = performance.now();
  const outcomes = await drive(
    app.port,
    total,
    concurrency,
    (i) => (i % 5 === 4 ? MALFORMED[(i / 5) % MALFORMED.length | 0] : VALID[i % VALID.length]),
    (done) => {
      if (done === Math.min(10_000, total)) rssAt10k = rssMiB(pid);
    },
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    requests: total,
    concurrency,
    malformedShare: outcomes.filter((o) => o.malformed).length / total,
    fiveXX: outcomes.filter((o) => o.status >= 500).length,
    validConnectionErrors: outcomes.filter((o) => !o.malformed && o.error).length,
    unexpectedStatuses: outcomes.filter((o) => (o.malformed ? o.status < 400 || o.status >= 500 : o.status !== 200)).length,
    rssAt10k,
    rssAt100k: rssMiB(pid),
    seconds,
  };
}
