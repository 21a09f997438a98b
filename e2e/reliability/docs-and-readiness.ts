import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alive, type ExitLog } from '../support/exit-log';
import { treeRssMiB } from '../support/process-stats';
import { startServing } from '../support/project-process';
import { createSampleProject, runProject, type RunningApp } from '../support/sample-server';
import { sleep, timedRequest } from '../support/timed-request';
import type { Row } from './attacks';
import { percentile } from './load';
import { probeBaseline } from './probe';

const root = join(__dirname, '..', '..');
const MOUNT = '/internal-service-api';
const DOCS_REQUESTS = 2_000;
const DOCS_CONCURRENCY = 16;
const READY_REQUESTS = 2_000;
const READY_CONCURRENCY = 200;

/**
 * Issue "first contact", items 8 and 10, on real processes. Item 8: an Express app mounting a trellis app whose
 * OpenAPI document is over 100 KB under `/internal-service-api`; clients fetch `openapi.json` at the configured
 * spelling, and under another casing of the mount path each time (Express matches it without case), while a
 * keep-alive probe sends `GET /tasks/1` back to back: its p50, its longest wait (an event-loop block), the
 * process's RSS, for the two kinds of rounds side by side. Item 10:
 * the sample under `trellis run` with a service whose `healthCheck()` fails, 2,000 requests to `/readyz`
 * (200 at a time): how many times the check ran, how many lines the log got.
 */
export async function docsAndReadiness(exits: ExitLog): Promise<Row[]> {
  return [...(await mountedDocs(exits)), ...(await failingReadiness(exits))];
}

async function mountedDocs(exits: ExitLog): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-docs-'));
  let app: RunningApp | undefined;
  const figure = (size: string) =>
    `docs mounted in Express (\`outer.use('${MOUNT}', app.handler)\`, a ${size} OpenAPI document), a keep-alive probe sending \`GET /tasks/1\` back to back: rounds of ${DOCS_REQUESTS.toLocaleString('en-US')} requests for openapi.json, ${DOCS_CONCURRENCY} at a time, at the configured spelling vs each under another casing of the mount path (after a warm-up round; 2 rounds of each, alternated, the worse shown)`;
  try {
    writeFileSync(join(dir, 'mounted.ts'), mountedApp());
    app = exits.watch(await startServing([process.execPath, '-r', join(root, 'register.js'), join(dir, 'mounted.ts')], { cwd: dir, timeoutMs: 120_000 }), 'mounted docs');
    const port = app.port;
    const pid = app.child.pid!;
    const first = await timedRequest(port, { method: 'GET', path: `${MOUNT}/docs/openapi.json` }, 60_000);
    if (first.status !== 200) return [[figure('large'), `openapi.json answered ${first.status || first.error}`, '200']];
    // A first round, not counted: the heap grows and the code warms up over the first thousands of requests,
    // which would otherwise favour whichever round comes second.
    await docsPhase(port, pid, () => MOUNT);
    const baseline = await probeBaseline(port);
    const rssBefore = treeRssMiB(pid);
    // Two rounds of each, alternated, each reported at its worst. RSS is one peak over the four: it rises and falls
    // in a sawtooth of a few rounds whatever is asked (about 230 -> 310 MiB here at the configured spelling alone),
    // as V8 frees the garbage of thousands of requests in one go.
    const rounds: DocsPhase[] = [];
    for (let round = 0; round < 4; round++) rounds.push(await docsPhase(port, pid, round % 2 === 0 ? () => MOUNT : (n) => casing(MOUNT, n)));
    const configured = worst(rounds[0], rounds[2]);
    const casings = worst(rounds[1], rounds[3]);
    const rssPeak = Math.max(configured.rssPeak, casings.rssPeak);
    const phase = (p: DocsPhase) => `${p.p50.toFixed(2)} ms / ${p.longest.toFixed(1)} ms`;
    return [
      [
        `${figure(`${Math.round(first.bytes / 1024)} KB`)}: probe p50 / longest probe wait (an event-loop block); RSS; 200s whose \`servers\` names the mount path (in some casing)`,
        `configured: ${phase(configured)}; casings: ${phase(casings)} (p50 ${baseline.toFixed(2)} ms without load); RSS ${rssBefore.toFixed(1)} -> ${rssPeak.toFixed(1)} MiB at the peak of the four rounds; ${casings.rightServer + configured.rightServer} of ${casings.served + configured.served}${alive(app) ? '' : '; the process exited'}`,
        `casings no worse than the configured spelling; RSS bounded (issue: p50 1.8 -> 122 ms, a 333 ms block, RSS 317 -> 483 MB); ${DOCS_REQUESTS * 4} of ${DOCS_REQUESTS * 4}`,
      ],
    ];
  } catch (error) {
    return [[figure('large'), `failed: ${(error as Error).message.split('\n')[0]}`, '']];
  } finally {
    if (app) await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function worst(a: DocsPhase, b: DocsPhase): DocsPhase {
  return {
    p50: Math.max(a.p50, b.p50),
    longest: Math.max(a.longest, b.longest),
    rssPeak: Math.max(a.rssPeak, b.rssPeak),
    served: a.served + b.served,
    rightServer: a.rightServer + b.rightServer,
  };
}

interface DocsPhase {
  p50: number;
  longest: number;
  rssPeak: number;
  served: number;
  rightServer: number;
}

/** `DOCS_REQUESTS` requests for the document, the `n`th under `mount(n)`, measured by a probe and RSS samples. */
async function docsPhase(port: number, pid: number, mount: (n: number) => string): Promise<DocsPhase> {
  let rssPeak = treeRssMiB(pid);
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, treeRssMiB(pid))), 50);
  const { latencies, outcomes } = await probing(port, () => docsLoad(port, mount));
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, treeRssMiB(pid));
  return {
    p50: percentile(latencies, 50),
    longest: Math.max(...latencies),
    rssPeak,
    served: outcomes.filter((outcome) => outcome.status === 200).length,
    rightServer: outcomes.filter((outcome) => outcome.rightServer).length,
  };
}

/** Runs `action` while a keep-alive client sends `GET /tasks/1` back to back; every probe's latency. */
async function probing<T>(port: number, action: () => Promise<T>): Promise<{ latencies: number[] } & T> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const outcome = await timedRequest(port, { method: 'GET', path: '/tasks/1' }, 30_000, agent);
      latencies.push(outcome.ms);
      if (outcome.status === 0) await sleep(2);
    }
  })();
  const result = await action();
  running = false;
  await loop;
  agent.destroy();
  return { latencies, ...result };
}

async function docsLoad(port: number, spelling: (n: number) => string): Promise<{ outcomes: Array<{ status: number; rightServer: boolean }> }> {
  const outcomes: Array<{ status: number; rightServer: boolean }> = [];
  let next = 0;
  const worker = async () => {
    while (next < DOCS_REQUESTS) {
      const mount = spelling(next++);
      const outcome = await timedRequest(port, { method: 'GET', path: `${mount}/docs/openapi.json` }, 60_000);
      const server = /"servers":\[\{"url":("[^"]*")\}\]/.exec(outcome.text)?.[1];
      outcomes.push({ status: outcome.status, rightServer: server !== undefined && (JSON.parse(server) as string).toLowerCase() === mount.toLowerCase() });
    }
  };
  await Promise.all(Array.from({ length: DOCS_CONCURRENCY }, worker));
  return { outcomes };
}

/** The `n`th casing of `path`: its letters upper-cased where the bits of `n` say. */
function casing(path: string, n: number): string {
  let bit = 0;
  return path.replace(/[a-z]/g, (letter) => ((n >> bit++) & 1 ? letter.toUpperCase() : letter));
}

/** An Express app with a probe route and a trellis app of 40 routers (200 routes) mounted under `MOUNT`. */
function mountedApp(): string {
  const routers = Array.from({ length: 40 }, (_, i) => `
/** Item set ${i}: what the service keeps of it. */
export class Item${i}In {
  @IsString() @Length(1, 200) title!: string;
  @IsOptional() @IsString() @MaxLength(2000) description?: string;
  @IsInt() @Min(0) @Max(1000000) quantity!: number;
  @IsOptional() @IsBoolean() archived?: boolean;
}

export class Item${i}Router extends router('/items-${i}') {
  /** Lists the items of set ${i}, a page at a time. */
  @Get() list(@Query('page') page: number = 1, @Query('q') q: string = '') { return { page, q, items: [] }; }
  /** One item of set ${i}. */
  @Get('/{item_id}') one(@Path('item_id', { type: Int }) id: number) { return { id }; }
  /** Creates an item in set ${i}. */
  @Post() create(@Body() body: Item${i}In) { return [body, 201]; }
  /** Replaces an item of set ${i}. */
  @Put('/{item_id}') replace(@Path('item_id', { type: Int }) id: number, @Body() body: Item${i}In) { return { id, ...body }; }
  /** Deletes an item of set ${i}. */
  @Delete('/{item_id}') remove(@Path('item_id', { type: Int }) id: number) { return { id }; }
}
`).join('');
  return `import { IsBoolean, IsInt, IsOptional, IsString, Length, Max, MaxLength, Min } from 'class-validator';
import { BaseRouter, Delete, Get, Post, Put, router } from 'trellis';
import { Body, Int, Path, Query } from 'trellis/param';
const express = require(${JSON.stringify(require.resolve('express', { paths: [root] }))});
${routers}
const app = new BaseRouter({ title: 'Internal service', version: '1.0.0', sourceTypes: false });
${Array.from({ length: 40 }, (_, i) => `app.includeRouter(Item${i}Router);`).join('\n')}
const outer = express();
outer.get('/tasks/1', (_req: unknown, res: { json(body: unknown): void }) => res.json({ id: 1, title: 'probe' }));
outer.use(${JSON.stringify(MOUNT)}, app.handler);
void app.start().then(() => {
  const server = outer.listen(0, '127.0.0.1', () => console.log(\`Running app mounted on http://127.0.0.1:\${server.address().port}\`));
});
`;
}

async function failingReadiness(exits: ExitLog): Promise<Row[]> {
  const figure = `readiness: ${READY_REQUESTS.toLocaleString('en-US')} requests to /readyz, ${READY_CONCURRENCY} at a time, while a service's healthCheck() fails (a database ping refused)`;
  const project = createSampleProject();
  let app: RunningApp | undefined;
  try {
    addFailingCheck(project.dir);
    app = exits.watch(await runProject(project.dir, ['--no-access-log']), 'failing readiness');
    const started = performance.now();
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < READY_REQUESTS) {
        next++;
        const { status } = await timedRequest(app!.port, { method: 'GET', path: '/readyz' }, 60_000);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: READY_CONCURRENCY }, worker));
    const seconds = (performance.now() - started) / 1000;
    const calls = JSON.parse((await timedRequest(app.port, { method: 'GET', path: '/check-calls' }, 10_000)).text) as { calls: number; most: number };
    const warnings = app.output().split('\n').filter((line) => line.includes('health check failed'));
    const answered = [...statuses].map(([status, count]) => `${count} x ${status || 'no answer'}`).join(', ');
    return [
      [
        `${figure}: healthCheck() calls (most at once) / warning lines in the log`,
        `${calls.calls} in ${seconds.toFixed(1)} s (${calls.most} at once) / ${warnings.length} (${warnings.join('').length.toLocaleString('en-US')} bytes); ${answered}`,
        `<= 1 per second (health.check_interval 1000 ms) + 1, 1 at once / 1 (issue: 2,001 calls, 200 at once / 1,999 lines, 5.9 MB)`,
      ],
    ];
  } catch (error) {
    return [[figure, `failed: ${(error as Error).message.split('\n')[0]}`, '']];
  } finally {
    if (app) await app.stop();
    project.remove();
  }
}

/** A service whose healthCheck() fails after 20 ms (a ping refused), and a route that says how often it ran. */
function addFailingCheck(dir: string): void {
  writeFileSync(
    join(dir, 'services', 'database.ts'),
    `/** Stands for a database whose pings are refused: its healthCheck() is what /readyz runs. */
export class Database {
  calls = 0;
  running = 0;
  most = 0;

  async healthCheck(): Promise<boolean> {
    this.calls++;
    this.most = Math.max(this.most, ++this.running);
    try {
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    } finally {
      this.running--;
    }
  }
}
`,
  );
  writeFileSync(
    join(dir, 'routers', 'check_calls.ts'),
    `import { Get, Injectable, router } from 'trellis';
import { Database } from '../services/database';

@Injectable()
export class CheckCallsRouter extends router('/check-calls') {
  constructor(private readonly database: Database) {
    super();
  }

  @Get() count() {
    return { calls: this.database.calls, most: this.database.most };
  }
}
`,
  );
}
