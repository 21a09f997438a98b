import assert from 'node:assert/strict';
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { childrenOf, cleanup, copyFixture, freePort, Running } from './run-support';

const running: Running[] = [];
after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  cleanup();
});

function start(args: string[], dir: string): Running {
  const run = new Running(args, dir);
  running.push(run);
  return run;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The inode of the socket listening on `port` (Linux /proc). */
function listeningSocket(port: number): string | undefined {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${hex}`) && fields[3] === '0A') return fields[9];
    }
  }
  return undefined;
}

/** Whether process `pid` holds the socket with `inode` (a worker does once it listens). */
function holds(pid: number, inode: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** The workers of `run` once there are `count` of them, each listening on `port`, none of them in `gone`. */
async function workers(run: Running, port: number, count: number, gone: number[] = []): Promise<number[]> {
  const ready = (pids: number[]) => {
    const inode = listeningSocket(port);
    return pids.length === count && !pids.some((pid) => gone.includes(pid)) && inode !== undefined && pids.every((pid) => holds(pid, inode));
  };
  let pids = childrenOf(run.pid);
  for (let i = 0; i < 200 && !ready(pids); i++) {
    await pause(50);
    pids = childrenOf(run.pid);
  }
  return ready(pids) ? pids : [];
}

/** Whether something accepts a TCP connection on 127.0.0.1:`port`. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

describe('trellis run --workers', () => {
  it('says in the banner that each worker has its own services, and prints the shutdown lines after any number of replacements', async () => {
    const run = start(['.', '--port', '0', '--workers', '2', '--no-access-log'], copyFixture('healthy'));
    const port = Number(new URL(await run.url()).port);
    assert.match(run.stdout, /^ {2}Workers: {5}2, each with its own services \(TaskService\): state kept in memory is not shared$/m);

    // Every first worker replaced, the one that printed the banner among them.
    const first = await workers(run, port, 2);
    assert.equal(first.length, 2);
    const gone: number[] = [];
    for (const pid of first) {
      process.kill(pid, 'SIGKILL');
      gone.push(pid);
      assert.equal((await workers(run, port, 2, gone)).length, 2, 'replaced');
    }
    assert.equal(run.stderr.match(/^trellis: worker \d+ exited \(signal\); starting another in/gm)?.length, 2, run.stderr);

    const from = run.stdout.length;
    run.kill('SIGTERM');
    assert.deepEqual(await run.exited, { code: 0, signal: null });
    assert.equal(run.stdout.slice(from), 'Shutting down (SIGTERM): finishing requests in flight\nStopped.\n');
  });

  it("stops the whole start with a worker's startup error: one line, exit 1, the port never opened", async () => {
    const dir = copyFixture('healthy');
    writeFileSync(
      join(dir, 'services', 'database.ts'),
      [
        'export class Database {',
        '  async onStartup() {',
        '    await new Promise((resolve) => setTimeout(resolve, 300));',
        "    throw new Error('database unreachable');",
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'routers', 'notes.ts'),
      "import { Get, Injectable, router } from 'trellis';\nimport { Database } from '../services/database';\n\n" +
        "@Injectable()\nexport class NotesRouter extends router('/notes') {\n  constructor(private readonly db: Database) { super(); }\n\n  @Get() list() { return []; }\n}\n",
    );
    const port = await freePort();
    const run = start(['.', '--port', String(port), '--workers', '2'], dir);
    let ended = false;
    void run.exited.then(() => (ended = true));
    let opened = 0;
    while (!ended) {
      if (await accepts(port)) opened++;
      await pause(25);
    }
    assert.deepEqual(await run.exited, { code: 1, signal: null });
    assert.equal(run.stderr, 'trellis: services/database.ts:4: Database.onStartup() failed: database unreachable\n');
    assert.equal(run.stdout, '');
    assert.equal(opened, 0, 'the port never opened');
  });
});
