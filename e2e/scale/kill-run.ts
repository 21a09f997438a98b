import { freePort } from '../../cli/tests/run-support';
import { PostStream, type Outcome } from './post-stream';
import { ScaleProject, scratchDatabase, type ScratchDatabase } from './scale-project';

/** The kill test's figures (issue 31, "Nothing lost"). */
export interface KillFigures {
  /** POST /tasks sent, refused connections included. */
  requests: number;
  /** Answered 201 (with an id). */
  created: number;
  /** Refused connections (the instance was down): never reached a server. */
  refused: number;
  /** Connections broken before a whole answer by the kill -9 (sent to the killed instance before it died). */
  cutByKill: number;
  /** Connections broken otherwise (the graceful stop of the other instance should leave none with a row). */
  cutOtherwise: number;
  /** Answers other than 201. */
  otherStatus: number;
  /** The stream's rows in the tasks table. */
  rows: number;
  /** Rows no client got a 201 for: each must be a request the kill cut. */
  unanswered: number;
  /** Of those, rows whose request was not cut by the kill (must be 0). */
  unexplained: number;
  /** 201s without their row, or whose row has another id (must be 0). */
  lost: number;
  /** 201s the survivor answered while the killed instance was down. */
  survivorCreatedWhileDown: number;
  /** The gracefully stopped instance's exit code (0: drained in time). */
  drainedExitCode: number | null;
}

/** Requests each stage waits for before the next: enough to be mid-stream, few enough for a 2-core machine. */
const PER_STAGE = 40;
const WAIT_MS = 120_000;

/**
 * Two built instances (`node dist/main.js`, A and B) of `project` on `database` under a steady stream of POST
 * /tasks (two keep-alive connections each); `kill -9` A mid-stream; B keeps answering; A restarts on its port
 * and answers again; SIGTERM B (it drains and exits 0); A answers on; the stream stops and A is stopped. Then
 * every task the stream created is read back from the database and compared with what the client was told.
 */
export async function killRun(project: ScaleProject, database: ScratchDatabase, log: (line: string) => void = () => {}): Promise<KillFigures> {
  const [portA, portB] = [await freePort(), await freePort()];
  const [a, b] = await Promise.all([project.startBuilt(database, portA), project.startBuilt(database, portB)]);
  let restarted: Awaited<ReturnType<ScaleProject['startBuilt']>> | undefined;
  const stream = new PostStream({ A: a.url, B: b.url }, 2);
  try {
    stream.start();
    await until(() => stream.created('A') >= PER_STAGE && stream.created('B') >= PER_STAGE, 'both instances answering', stream);
    log(`  streaming: ${stream.created()} tasks created; kill -9 A`);

    stream.phase = 'A killed';
    a.run.kill('SIGKILL');
    const atKill = stream.created('B');
    await a.run.exited;
    await until(() => stream.created('B') >= atKill + PER_STAGE, 'B answering while A is down', stream);
    log(`  B answered ${stream.created('B') - atKill} while A was down; restarting A`);

    restarted = await project.startBuilt(database, portA);
    const survivorCreatedWhileDown = stream.created('B') - atKill;
    stream.phase = 'A restarted';
    const atRestart = stream.created('A');
    await until(() => stream.created('A') >= atRestart + PER_STAGE, 'the restarted A answering', stream);
    log(`  A answers again; SIGTERM B`);

    stream.phase = 'B draining';
    b.run.kill('SIGTERM');
    const { code: drainedExitCode } = await b.run.exited;
    const afterDrain = stream.created('A');
    await until(() => stream.created('A') >= afterDrain + PER_STAGE, 'A answering after B stopped', stream);
    await stream.stop();
    restarted.run.kill('SIGTERM');
    await restarted.run.exited;
    return { ...(await compare(stream.outcomes, database)), survivorCreatedWhileDown, drainedExitCode };
  } finally {
    await stream.stop();
    await Promise.all([a.run.stop(), b.run.stop(), restarted?.run.stop()]);
  }
}

async function compare(outcomes: Outcome[], database: ScratchDatabase): Promise<Omit<KillFigures, 'survivorCreatedWhileDown' | 'drainedExitCode'>> {
  const rows = await database.query<{ id: number; title: string }>("select id, title from tasks where title like 'stream-%'");
  const byTitle = new Map(rows.map((row) => [row.title, row.id]));
  const created = outcomes.filter((o) => o.status === 201);
  const answered = new Set(created.map((o) => o.title));
  const cutByKill = new Set(outcomes.filter((o) => o.error === 'cut' && o.target === 'A' && o.phase !== 'A restarted' && o.phase !== 'B draining').map((o) => o.title));
  const unanswered = rows.filter((row) => !answered.has(row.title));
  return {
    requests: outcomes.length,
    created: created.length,
    refused: outcomes.filter((o) => o.error === 'refused').length,
    cutByKill: cutByKill.size,
    cutOtherwise: outcomes.filter((o) => o.error === 'cut').length - cutByKill.size,
    otherStatus: outcomes.filter((o) => o.status !== undefined && o.status !== 201).length,
    rows: rows.length,
    unanswered: unanswered.length,
    unexplained: unanswered.filter((row) => !cutByKill.has(row.title)).length,
    lost: created.filter((o) => byTitle.get(o.title) !== o.id).length,
  };
}

/** Resolves once `condition()` holds, checked every 10 ms; fails after {@link WAIT_MS} saying what it waited for. */
async function until(condition: () => boolean, what: string, stream: PostStream): Promise<void> {
  for (const deadline = Date.now() + WAIT_MS; !condition(); ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${stream.created('A')} created by A, ${stream.created('B')} by B`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The figures as lines for a reader. */
export function report(f: KillFigures): string[] {
  const rows: Array<[string, string | number]> = [
    ['requests', `${f.requests} (${f.refused} refused while their instance was down)`],
    ['201s', f.created],
    ['other answers', f.otherStatus],
    ['cut by the kill', f.cutByKill],
    ['cut otherwise', f.cutOtherwise],
    ['rows', f.rows],
    ['rows without a 201', `${f.unanswered} (${f.unexplained} not cut by the kill)`],
    ['201s while A was down', f.survivorCreatedWhileDown],
    ['B after SIGTERM', `exit code ${f.drainedExitCode}`],
    ['lost', f.lost],
  ];
  return rows.map(([name, value]) => `${name.padEnd(22)} ${value}`);
}

/** `node --require ./register.js e2e/scale/kill-run.ts`: the figures of one run, on a database of its own. */
async function main(): Promise<void> {
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say('Preparing the --db sample (staged trellis, trellis build) and a database...');
  const project = await ScaleProject.create();
  const database = await scratchDatabase();
  try {
    await project.migrate(database);
    const figures = await killRun(project, database, say);
    for (const line of report(figures)) say(line);
    if (figures.lost !== 0 || figures.unexplained !== 0) process.exitCode = 1;
  } finally {
    await database.drop();
    project.remove();
  }
}

if (require.main === module) void main();
