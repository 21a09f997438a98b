import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { createSampleProject, runProject, type RunningApp } from './support/sample-server';

// Issue 40, item 5: WebSockets cannot lock HTTP out. Before, they shared server.max_connections and held their slot
// for as long as the peer answered pings: one client opening 1,000 upgrades to the sample's open /ws/tasks made every
// HTTP request, /healthz included, fail with a connection reset. The sample under `trellis run`, a real process:
// HTTP's cap is set below the WebSockets' so that WebSockets counted against it would show.

const HTTP_CAP = 50;
const WS_CAP = 150;
const PER_CLIENT = 100;

const sample = createSampleProject();
let app: RunningApp;
const sockets: WebSocket[] = [];

before(async () => {
  const config = join(sample.dir, 'config.yaml');
  const text = readFileSync(config, 'utf8').replace(/^server:\n/m, `server:\n  max_connections: ${HTTP_CAP}\n`);
  writeFileSync(config, `${text}websockets:\n  max_connections: ${WS_CAP}\n  max_connections_per_client: ${PER_CLIENT}\n`);
  app = await runProject(sample.dir, ['--no-access-log']);
});

after(async () => {
  for (const socket of sockets) socket.terminate();
  await app?.stop();
  sample.remove();
});

/** Opens an upgrade to /ws/tasks from `localAddress`: 101, or the status it was refused with. */
function upgrade(localAddress: string): Promise<number> {
  const socket = new WebSocket(`${app.url.replace(/^http/, 'ws')}/ws/tasks`, { localAddress });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(101));
    socket.once('unexpected-response', (_req, res) => {
      res.resume();
      socket.terminate();
      resolve(res.statusCode ?? 0);
    });
    socket.once('error', reject);
  });
}

/** `count` upgrades from `localAddress`, 50 at a time: how many got each status. */
async function upgrades(localAddress: string, count: number): Promise<Record<number, number>> {
  const tally: Record<number, number> = {};
  for (let done = 0; done < count; done += 50) {
    const statuses = await Promise.all(Array.from({ length: Math.min(50, count - done) }, () => upgrade(localAddress)));
    for (const status of statuses) tally[status] = (tally[status] ?? 0) + 1;
  }
  return tally;
}

/** A plain HTTP GET on a connection of its own: the status. */
function status(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(`${app.url}${path}`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

describe('WebSocket connection caps under trellis run (a real process)', () => {
  it('one client opening 1,000 upgrades holds its share (the rest 429), and every route still answers', async () => {
    assert.deepEqual(await upgrades('127.0.0.1', 1_000), { 101: PER_CLIENT, 429: 1_000 - PER_CLIENT });
    const answers = await Promise.all([status('/healthz'), status('/readyz'), status('/tasks'), ...Array.from({ length: 20 }, () => status('/healthz'))]);
    assert.deepEqual([...new Set(answers)], [200]);
  });

  it('more clients fill every WebSocket slot of the process (the rest 503), far past HTTP’s cap, and HTTP is served', async () => {
    assert.deepEqual(await upgrades('127.0.0.2', PER_CLIENT), { 101: WS_CAP - PER_CLIENT, 503: 2 * PER_CLIENT - WS_CAP });
    assert.ok(WS_CAP > HTTP_CAP);
    // HTTP's own cap is whole: as many concurrent requests as it allows are served at once.
    const answers = await Promise.all(Array.from({ length: HTTP_CAP - 5 }, (_, i) => status(i % 2 ? '/healthz' : '/tasks')));
    assert.deepEqual([...new Set(answers)], [200]);
  });

  it('a slot freed by a closing client is taken again', async () => {
    const open = sockets.filter((socket) => socket.readyState === WebSocket.OPEN);
    assert.equal(open.length, WS_CAP);
    const closing = open.slice(0, 10);
    await Promise.all(closing.map((socket) => new Promise((resolve) => (socket.once('close', resolve), socket.close()))));
    assert.deepEqual(await upgrades('127.0.0.3', 10), { 101: 10 });
    assert.equal(await upgrade('127.0.0.3'), 503);
  });
});
