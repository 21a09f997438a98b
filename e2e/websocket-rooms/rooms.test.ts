import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { Running } from '../../cli/tests/run-support';
import { roomsProject } from './rooms-project';

// Issue 33, item 6: rooms across workers and instances through Redis pub/sub. One instance with `--workers 4` and
// a second one on another port, all on one real Redis (TRELLIS_TEST_REDIS_URL, or the local default `.ci/run`
// starts; unreachable fails the test): a broadcast made through any of the five processes reaches a client on
// every one of them exactly once.

const REDIS_URL = process.env.TRELLIS_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
// Compiling the project's TypeScript takes seconds of CPU per process: tens of seconds on 2 busy cores.
const START_WITHIN_MS = 180_000;
const WAIT_MS = 60_000;
// The room of this file's clients (Redis pub/sub is one namespace for every database of the server).
const ROOM = `rooms-e2e-${randomBytes(6).toString('hex')}`;

const project = roomsProject();
const running: Running[] = [];
const sockets: WebSocket[] = [];

after(async () => {
  for (const socket of sockets) socket.terminate();
  await Promise.all(running.map((run) => run.stop()));
  project.remove();
});

interface Message {
  event: string;
  id: string;
  from: number;
}

/** A client of `/ws/feed`: the process that holds it (its `hello`), and the broadcasts it received, in order. */
interface Listener {
  pid: number;
  messages: Message[];
}

before(async () => {
  const { hostname, port } = new URL(REDIS_URL);
  await new Promise<void>((resolve, reject) => {
    const socket = connect(Number(port || 6379), hostname, () => socket.end(resolve));
    socket.on('error', (error) => reject(new Error(`no Redis at ${REDIS_URL} (TRELLIS_TEST_REDIS_URL): ${error.message}`)));
  });
});

function start(args: string[]): Running {
  const run = new Running(['.', '--host', '127.0.0.1', '--port', '0', '--no-access-log', ...args], project.root, { REDIS_URL, ROOMS_TEST_ROOM: ROOM });
  running.push(run);
  return run;
}

/** One request on `agent` (its keep-alive connection, so the same process answers a series): the JSON answer. */
function call(agent: Agent, url: string, method: string, path: string): Promise<{ pid: number }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`${method} ${path}: ${res.statusCode} ${text}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Broadcasts `id` through process `pid` behind `url`: new connections until that process answers one. */
async function broadcastThrough(url: string, pid: number, id: string): Promise<void> {
  for (const deadline = Date.now() + WAIT_MS; ; ) {
    assert.ok(Date.now() < deadline, `process ${pid} took no connection within ${WAIT_MS} ms`);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      if ((await call(agent, url, 'GET', '/whoami')).pid !== pid) continue;
      assert.equal((await call(agent, url, 'POST', `/broadcast/${id}`)).pid, pid);
      return;
    } finally {
      agent.destroy();
    }
  }
}

/** A new client of `url`'s feed, once its `hello` told which process holds it. */
function listen(url: string): Promise<Listener & { socket: WebSocket }> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/ws/feed`);
  sockets.push(socket);
  const messages: Message[] = [];
  return new Promise((resolve, reject) => {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.event === 'hello') resolve({ pid: message.pid, messages, socket });
      else messages.push(message);
    });
    socket.on('error', reject);
    socket.on('close', (code) => reject(new Error(`closed with ${code} before its hello`)));
  });
}

/** Clients of `url` until `count` processes hold one: one client per process (the first each took). */
async function onEveryProcess(url: string, count: number): Promise<Listener[]> {
  const byPid = new Map<number, Listener>();
  for (const deadline = Date.now() + WAIT_MS; byPid.size < count; ) {
    assert.ok(Date.now() < deadline, `clients reached only ${byPid.size} of ${count} processes within ${WAIT_MS} ms`);
    const listener = await listen(url);
    // A second client of one process goes: the processes still starting would otherwise leave one holding them all
    // (past its per-client cap of WebSocket connections).
    if (!byPid.has(listener.pid)) byPid.set(listener.pid, listener);
    else listener.socket.terminate();
  }
  return [...byPid.values()];
}

async function until(condition: () => boolean, what: string, timeoutMs = WAIT_MS): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; !condition(); ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

describe('WebSocket rooms across workers and instances, through Redis', () => {
  it('delivers a broadcast made through any process to a client on every process exactly once', async () => {
    const [first, second] = [start(['--workers', '4']), start([])];
    const [workersUrl, instanceUrl] = await Promise.all([first.url(START_WITHIN_MS), second.url(START_WITHIN_MS)]);
    const listeners = [...(await onEveryProcess(workersUrl, 4)), ...(await onEveryProcess(instanceUrl, 1))];
    const pids = listeners.map((listener) => listener.pid);
    assert.equal(new Set(pids).size, 5, `five processes: ${pids}`);
    const urlOf = (pid: number) => (pid === pids[4] ? instanceUrl : workersUrl);

    // Every process has subscribed once each of its clients got a broadcast made by another process.
    const subscribed = () => listeners.every((listener) => listener.messages.some((message) => message.from !== listener.pid));
    for (let round = 0; !subscribed(); round++) {
      assert.ok(round < 300, 'the processes did not all subscribe');
      await broadcastThrough(instanceUrl, pids[4], `warm-${round}`);
      await broadcastThrough(workersUrl, pids[round % 4], `warm-${round}`);
      await until(subscribed, 'the warm-up', 500).catch(() => false);
    }
    for (const listener of listeners) listener.messages.length = 0;

    for (const pid of pids) await broadcastThrough(urlOf(pid), pid, `message-${pid}`);
    // Then a fence through each process: Redis hands a subscriber each publisher's messages in order, so once a
    // client has every fence, a second copy of any message would already have come.
    for (const pid of pids) await broadcastThrough(urlOf(pid), pid, `fence-${pid}`);
    const fenced = (listener: Listener) => pids.every((pid) => listener.messages.some((message) => message.id === `fence-${pid}`));
    await until(() => listeners.every(fenced), 'every fence at every client');

    const expected = pids.map((pid) => `message-${pid}`).sort();
    for (const listener of listeners) {
      const received = listener.messages.filter((message) => message.id.startsWith('message-'));
      assert.deepEqual(received.map((message) => message.id).sort(), expected, `the client on ${listener.pid}`);
      for (const message of received) assert.equal(message.id, `message-${message.from}`, 'sent by the process it names');
    }
  });
});
