import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { childrenOf, type Running } from '../../cli/tests/run-support';
import { killRun } from './kill-run';
import { ScaleProject, scratchDatabase, type ScratchDatabase } from './scale-project';

// Issue 31's "many processes, one state" and "nothing lost", on a real PostgreSQL (TRELLIS_TEST_DATABASE_URL or
// the local default; unreachable fails the run): the `trellis create --db` sample, built once, each test on a
// database of its own.

let project: ScaleProject;
const databases: ScratchDatabase[] = [];
const running: Running[] = [];

before(async () => {
  project = await ScaleProject.create();
});

after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  await Promise.all(databases.map((database) => database.drop()));
  project?.remove();
});

async function migrated(): Promise<ScratchDatabase> {
  const database = await scratchDatabase();
  databases.push(database);
  assert.match(await project.migrate(database), /^3 migrations applied: the database is up to date\.$/m);
  return database;
}

interface Answer {
  status: number;
  body: unknown;
}

/** One request on `agent` (its keep-alive connection, so the same process answers a series). */
function call(agent: Agent, url: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const data = body === undefined ? undefined : JSON.stringify(body);
  const headers = data === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) };
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text === '' ? undefined : JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

/** One request on a connection of its own. */
async function once(url: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const agent = new Agent({ keepAlive: false });
  try {
    return await call(agent, url, method, path, body);
  } finally {
    agent.destroy();
  }
}

/**
 * `method path` answered by each of the `count` workers behind `url`: new connections until every worker has
 * taken one (the worker is the pid `/whoami` answers on that connection), keyed by pid.
 */
async function byEveryWorker(url: string, count: number, method: string, path: string, body?: unknown): Promise<Map<number, Answer>> {
  const answers = new Map<number, Answer>();
  for (const deadline = Date.now() + 60_000; answers.size < count; ) {
    assert.ok(Date.now() < deadline, `only workers ${[...answers.keys()]} answered within 60 s`);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const { pid } = (await call(agent, url, 'GET', '/whoami')).body as { pid: number };
      if (!answers.has(pid)) answers.set(pid, await call(agent, url, method, path, body));
    } finally {
      agent.destroy();
    }
  }
  return answers;
}

describe('many processes, one state (PostgreSQL)', () => {
  it('trellis run --workers 4 and two built instances share every task: created, read, updated and deleted through different ones', async () => {
    const database = await migrated();
    const [workers, a, b] = await Promise.all([project.startWorkers(database, 4), project.startBuilt(database), project.startBuilt(database)]);
    running.push(workers.run, a.run, b.run);

    // Created through A: every worker and B read it.
    const created = await once(a.url, 'POST', '/tasks', { title: 'Made by A' });
    assert.equal(created.status, 201);
    const task = created.body as { id: number; title: string; completed: boolean };
    assert.deepEqual(task, { id: 3, title: 'Made by A', description: '', completed: false });
    const read = await byEveryWorker(workers.url, 4, 'GET', `/tasks/${task.id}`);
    assert.deepEqual([...read.keys()].sort(), childrenOf(workers.run.pid).sort(), 'the four workers of trellis run');
    for (const answer of read.values()) assert.deepEqual(answer, { status: 200, body: task });
    assert.deepEqual(await once(b.url, 'GET', `/tasks/${task.id}`), { status: 200, body: task });

    // Updated through B: every worker and A read the new version.
    const replaced = { id: task.id, title: 'Changed by B', description: 'shared', completed: true };
    assert.deepEqual(await once(b.url, 'PUT', `/tasks/${task.id}`, { title: 'Changed by B', description: 'shared', completed: true }), { status: 200, body: replaced });
    for (const answer of (await byEveryWorker(workers.url, 4, 'GET', `/tasks/${task.id}`)).values()) assert.deepEqual(answer, { status: 200, body: replaced });
    assert.deepEqual(await once(a.url, 'GET', `/tasks/${task.id}`), { status: 200, body: replaced });

    // Created by one worker, listed by A and B; then each worker deletes one task the others see gone.
    const fromWorker = await once(workers.url, 'POST', '/tasks', { title: 'Made by a worker' });
    assert.deepEqual(fromWorker, { status: 201, body: { id: 4, title: 'Made by a worker', description: '', completed: false } });
    for (const url of [a.url, b.url]) {
      const list = await once(url, 'GET', '/tasks');
      assert.deepEqual((list.body as Array<{ id: number }>).map((t) => t.id), [1, 2, 3, 4]);
    }
    const deleted = await byEveryWorker(workers.url, 4, 'DELETE', `/tasks/${task.id}`);
    assert.deepEqual([...deleted.values()].map((answer) => answer.status).sort(), [200, 404, 404, 404], 'one worker deleted it; the others found it gone');
    for (const url of [a.url, b.url]) assert.equal((await once(url, 'GET', `/tasks/${task.id}`)).status, 404);
    assert.deepEqual(await database.query('select id from tasks order by id'), [{ id: 1 }, { id: 2 }, { id: 4 }]);

    for (const run of [workers.run, a.run, b.run]) run.kill('SIGTERM');
    for (const run of [workers.run, a.run, b.run]) assert.deepEqual(await run.exited, { code: 0, signal: null }, run.stderr);
  });

  it('loses nothing: two built instances under a stream of POSTs, one killed -9 and restarted, the other stopped gracefully', async () => {
    const figures = await killRun(project, await migrated());
    // Every 201 a client got is a row with its id; rows no client was answered for are requests the kill cut.
    assert.equal(figures.lost, 0);
    assert.equal(figures.unexplained, 0);
    assert.ok(figures.unanswered <= figures.cutByKill, `${figures.unanswered} unanswered rows, ${figures.cutByKill} requests cut by the kill`);
    assert.equal(figures.rows, figures.created + figures.unanswered);
    // The survivor served through the kill; the graceful stop drained (exit 0) and left no row unanswered.
    assert.ok(figures.survivorCreatedWhileDown >= 40, `B created ${figures.survivorCreatedWhileDown} while A was down`);
    assert.equal(figures.drainedExitCode, 0);
    assert.equal(figures.otherStatus, 0);
  });
});
