import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_SPELLINGS } from '../../framework/tests/fixtures/path-spellings';
import { alive, type ExitLog } from '../support/exit-log';
import { rawStatus } from '../support/raw-http';
import { createSampleProject, runProject, type RunningApp } from '../support/sample-server';
import { sleep } from '../support/timed-request';
import type { Row } from './attacks';

const REQUESTS = 200;

/**
 * The Express edge of a real `trellis run` (issue "first contact", items 6 and 7): the sample gets an app-wide
 * Express guard (`req.path.startsWith('/edge/admin') ? 401 : next()`, listed in config.yaml) and a router whose
 * one route sits behind an async Express middleware that rejects; then N requests to that route (500s, the
 * process still serving, error lines per request id) and every spelling of the guarded path (served past the
 * guard: a 200 of the guarded route).
 */
export async function expressEdge(exits: ExitLog): Promise<Row[]> {
  const project = createSampleProject();
  addExpressEdge(project.dir);
  let app: RunningApp | undefined;
  try {
    app = exits.watch(await runProject(project.dir), 'express edge');
    const rejecting = await rejectingMiddleware(app);
    const aliveAfter = alive(app);
    if (!aliveAfter) return [['express edge: a route behind an async Express middleware that rejects', `the process exited (${rejecting.fiveHundreds} 500s; ${rejecting.linesPerRequest})`, 'serves on']];
    const spellings = ADMIN_SPELLINGS.map((spelling) => spelling.replace(/^(https?:\/\/[^/]+)?/, (authority) => `${authority}/edge`));
    let served = 0;
    for (const target of spellings) {
      if ((await rawStatus(app.port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)) === 200) served++;
    }
    const open = await fetch(`${app.url}/edge/admin/secret`, { headers: { authorization: 'edge' } });
    return [
      [
        `express edge: ${REQUESTS} requests to a route behind an async Express middleware that rejects (@Use): 500s / process alive after / error log lines per request id`,
        `${rejecting.fiveHundreds} / yes / ${rejecting.linesPerRequest}`,
        `${REQUESTS} / yes / exactly 1 each`,
      ],
      [
        `express edge: ${spellings.length} spellings of a path an app-wide Express guard (req.path.startsWith) refuses (%61, %2F, %2561, %41DMIN, //, /./, /../, trailing slash, ;params, backslash, %00, overlong UTF-8, absolute form...): served past the guard`,
        `${served} (the route itself, with the credentials the guard wants: ${open.status})`,
        '0',
      ],
    ];
  } catch (error) {
    return [['express edge', `failed: ${(error as Error).message.split('\n')[0]}`, '']];
  } finally {
    if (app) await app.stop();
    project.remove();
  }
}

async function rejectingMiddleware(app: RunningApp): Promise<{ fiveHundreds: number; linesPerRequest: string }> {
  const ids: string[] = [];
  let fiveHundreds = 0;
  let unanswered = 0;
  for (let i = 0; i < REQUESTS && alive(app); i++) {
    try {
      const res = await fetch(`${app.url}/edge/reject`, { signal: AbortSignal.timeout(5_000) });
      await res.arrayBuffer();
      if (res.status === 500) fiveHundreds++;
      ids.push(res.headers.get('x-request-id') ?? '');
    } catch {
      unanswered++;
      break; // the process is gone (or going): the rest would be refused
    }
  }
  // The error lines are written in batches: wait (bounded) until every request's has come out.
  const count = () => {
    const lines = app.output().split('\n').filter((line) => line.includes('"level":50') && line.includes('rejected by the middleware'));
    const perId = new Map<string, number>();
    for (const line of lines) {
      const id = /"reqId":"([^"]+)"/.exec(line)?.[1] ?? '';
      perId.set(id, (perId.get(id) ?? 0) + 1);
    }
    return { lines: lines.length, perId };
  };
  for (let waited = 0; count().lines < REQUESTS && waited < 5_000; waited += 50) await sleep(50);
  const { lines, perId } = count();
  const exactlyOne = ids.filter((id) => perId.get(id) === 1).length;
  const lost = unanswered ? '; the request after them never answered' : '';
  return { fiveHundreds, linesPerRequest: `${lines} lines; ${exactlyOne} of ${ids.length} ids logged exactly once${lost}` };
}

/** The Express guard (app-wide, through config.yaml) and the router behind it. */
function addExpressEdge(dir: string): void {
  writeFileSync(
    join(dir, 'middleware', 'edge_guard.ts'),
    `import { ExpressMiddlewareAdapter } from 'trellis/express';

/** An Express guard written the Express way: by the path it reads. */
export class EdgeGuard extends ExpressMiddlewareAdapter {
  constructor() {
    super((req: { path: string; get(name: string): string | undefined }, res: { status(code: number): { json(body: unknown): void } }, next: () => void) =>
      req.path.startsWith('/edge/admin') && req.get('authorization') !== 'edge' ? res.status(401).json({ error: 'Unauthorized' }) : next(),
    );
  }
}
`,
  );
  writeFileSync(
    join(dir, 'routers', 'edge.ts'),
    `import { Get, router, Use } from 'trellis';

export class EdgeRouter extends router('/edge') {
  @Get('/admin/secret') secret() {
    return { secret: 'edge' };
  }

  @Get('/reject')
  @Use(async (_req: unknown, _res: unknown, _next: () => void) => {
    await new Promise((resolve) => setImmediate(resolve));
    throw new Error('rejected by the middleware');
  })
  reject() {
    return { reached: true };
  }
}
`,
  );
  const config = join(dir, 'config.yaml');
  writeFileSync(config, readFileSync(config, 'utf8').replace(/^middleware:.*\n/m, (line) => `${line}  - edge_guard\n`));
}
