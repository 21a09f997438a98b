import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cleanup, copyFixture, http, Running } from './run-support';

const running: Running[] = [];
// A start compiles the project and reads its sources' types: seconds of CPU, 10-20 s on a busy 2-core machine,
// where the default 20 s wait for the banner ran out. The wait ends as soon as the banner is printed.
const STARTED_WITHIN_MS = 180_000;
const start = (dir: string) => {
  const run = new Running(['.', '--host', '127.0.0.1', '--port', '0'], dir);
  running.push(run);
  return { url: () => run.url(STARTED_WITHIN_MS) };
};
after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  cleanup();
});

// A service recording a metric of its own on the app's registry, injected by its type.
const SIGNUPS_SERVICE = `import { Injectable } from 'trellis';
import { Counter, Registry } from 'prom-client';

@Injectable()
export class Signups {
  readonly total: Counter;
  constructor(registry: Registry) {
    this.total = new Counter({ name: 'signups_total', help: 'Accounts created.', registers: [registry] });
  }
}
`;
const SIGNUPS_ROUTER = `import { Injectable, Post, router } from 'trellis';
import { Signups } from '../services/signups';

@Injectable()
export class SignupRouter extends router('/signups') {
  constructor(private readonly signups: Signups) {
    super();
  }

  @Post('/', { status: 201 })
  create() {
    this.signups.total.inc();
    return {};
  }
}
`;

/** The value of `name{labels}` in a Prometheus text exposition. */
function sample(text: string, name: string, labels: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}} `) || (labels === '' && l.startsWith(`${name} `)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('trellis run with metrics', () => {
  it('serves /metrics when config.yaml turns them on: requests by route pattern, the process, a service\'s own metric', async () => {
    const dir = copyFixture('healthy');
    writeFileSync(join(dir, 'config.yaml'), 'middleware: [timing]\nmetrics: { enabled: true }\nadmin: { token: t }\n');
    mkdirSync(join(dir, 'services'), { recursive: true });
    writeFileSync(join(dir, 'services', 'signups.ts'), SIGNUPS_SERVICE);
    writeFileSync(join(dir, 'routers', 'signups.ts'), SIGNUPS_ROUTER);
    const url = await start(dir).url();
    for (const path of ['/tasks/1', '/tasks/1', '/tasks/999', '/no/such/path']) await http(`${url}${path}`);
    assert.equal((await http(`${url}/signups`, { method: 'POST' })).status, 201);

    const res = await http(`${url}/metrics`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
    assert.equal(sample(res.text, 'http_requests_total', 'method="GET",route="/tasks/{task_id}",status_code="200"'), 2);
    assert.equal(sample(res.text, 'http_requests_total', 'method="GET",route="/tasks/{task_id}",status_code="404"'), 1);
    assert.equal(sample(res.text, 'http_requests_total', 'method="GET",route="__unmatched__",status_code="404"'), 1);
    assert.equal(sample(res.text, 'http_request_duration_seconds_count', 'method="POST",route="/signups",status_code="201"'), 1);
    assert.equal(sample(res.text, 'signups_total', ''), 1);
    assert.match(res.text, /^nodejs_eventloop_lag_seconds \S+$/m);
    assert.match(res.text, /^nodejs_heap_size_used_bytes \S+$/m);

    const openapi = JSON.parse((await http(`${url}/docs/openapi.json`)).text);
    assert.ok(!('/metrics' in openapi.paths));
  });

  it('serves them at metrics.path, and not at all by default', async () => {
    const moved = copyFixture('healthy');
    writeFileSync(join(moved, 'config.yaml'), 'middleware: [timing]\nmetrics: { enabled: true, path: /internal/metrics }\nadmin: { token: t }\n');
    const plain = copyFixture('healthy');
    // One after the other: two starts at once double the time each takes on a loaded machine.
    const movedUrl = await start(moved).url();
    const plainUrl = await start(plain).url();
    assert.equal((await http(`${movedUrl}/internal/metrics`)).status, 200);
    assert.equal((await http(`${movedUrl}/metrics`)).status, 404);
    assert.equal((await http(`${plainUrl}/metrics`)).status, 404);
  });
});
