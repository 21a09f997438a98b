// In-process cost of each HTTP essential on GET /tasks/1: requests driven straight into app.handler (no socket, no
// load generator), the variants interleaved, medians of per-request time. What wrk's cells measure with the network
// and Node's HTTP parser taken away, so the features' own work stands out: the denominator is smaller than a real
// request's, and the ratios are upper bounds of the real cost.
//   node -r ./register.js bench/micro/essentials-overhead.ts [--requests 20000] [--rounds 15]
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { BaseRouter, Get, router } from '../../framework/index';
import { compression, cors, etag, rateLimit } from '../../framework/plugins';
import type { Plugin } from '../../framework/plugins';

class Tasks extends router('/tasks') {
  @Get('/{id}') one() {
    return { id: 1, title: 'write docs', completed: false };
  }
}

const ORIGIN = 'http://localhost:5173';
const variants: Record<string, () => Plugin[]> = {
  off: () => [],
  cors: () => [cors({ origins: [ORIGIN] })],
  'rate-limit': () => [rateLimit({ limit: 1e9, window: '1m' })],
  etag: () => [etag()],
  compression: () => [compression()],
};

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const requests = arg('--requests', 20_000);
const rounds = arg('--rounds', 15);

async function build(plugins: Plugin[]) {
  const app = new BaseRouter({ sourceTypes: false, docs: false });
  for (const plugin of plugins) app.register(plugin);
  app.includeRouter(Tasks);
  await app.start();
  return app.handler;
}

function drive(handler: (req: IncomingMessage, res: ServerResponse) => void, n: number): number {
  const socket = new Socket();
  const headers = { host: 'x', origin: ORIGIN, 'accept-encoding': 'gzip, deflate, br' };
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const req = new IncomingMessage(socket);
    req.method = 'GET';
    req.url = '/tasks/1';
    req.headers = headers;
    req.complete = true;
    const res = new ServerResponse(req);
    res.writeHead = (() => res) as unknown as typeof res.writeHead;
    res.end = (() => res) as unknown as typeof res.end;
    handler(req, res);
  }
  return Number(process.hrtime.bigint() - start) / 1000 / n;
}

async function main() {
  const handlers = Object.fromEntries(await Promise.all(Object.entries(variants).map(async ([name, make]) => [name, await build(make())] as const)));
  for (const handler of Object.values(handlers)) drive(handler, requests); // warm-up
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(handlers).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, handler] of Object.entries(handlers)) times[name].push(drive(handler, requests));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const off = median(times.off);
  console.log(`${requests} requests x ${rounds} rounds, interleaved, medians; node ${process.version}\n`);
  console.log('| variant | µs per request | added µs | on / off |');
  console.log('|---|---:|---:|---:|');
  for (const name of Object.keys(handlers)) {
    const t = median(times[name]);
    console.log(`| ${name} | ${t.toFixed(2)} | ${(t - off).toFixed(2)} | ${(t / off).toFixed(3)} |`);
  }
  process.exit(0);
}

void main();
