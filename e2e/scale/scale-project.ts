import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createProject, projectDefaults, resolveExamples } from '../../generators';
import { ROOT, runCli, Running } from '../../cli/tests/run-support';
import { linkDependencies, stageTrellis } from '../../cli/tests/staged-trellis';

/** The PostgreSQL server the tests use (`.ci/run` starts one); a test fails, never skips, when it is unreachable. */
export const SERVER_URL = process.env.TRELLIS_TEST_DATABASE_URL ?? 'postgres://trellis:trellis@127.0.0.1:5432/trellis';

const TOKEN = 'scale-test-token';
// Added to the sample: which process answered, so a test can tell the workers apart.
const WHOAMI_ROUTER = `import { Get, router } from 'trellis';

export class WhoamiRouter extends router('/whoami') {
  @Get() whoami() {
    return { pid: process.pid };
  }
}
`;
// A built app's banner ends with its middleware line (it has no doctor hint).
const BUILT_BANNER_END = /  Middleware: .+\n/;
// Compiling and reading the project's types takes seconds of CPU per process: tens of seconds on 2 busy cores.
const START_WITHIN_MS = 180_000;

/** A database of its own on {@link SERVER_URL}, dropped by `drop()`. */
export interface ScratchDatabase {
  url: string;
  name: string;
  /** One query on it (a client opened and closed each time). */
  query<T extends object>(text: string, values?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/** Creates `trellis_scale_<random>` on the test server. */
export async function scratchDatabase(): Promise<ScratchDatabase> {
  const name = `trellis_scale_${randomBytes(6).toString('hex')}`;
  await withClient(SERVER_URL, (client) => client.query(`create database ${name}`));
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    query: (text, values) => withClient(url.toString(), async (client) => (await client.query(text, values)).rows),
    drop: () => withClient(SERVER_URL, (client) => client.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}

async function withClient<T>(url: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * The `trellis create --db` sample, as a user gets it, in a temporary folder: trellis staged as its package ships
 * (compiled), the project's libraries linked from this checkout, config.yaml's port 0, a `GET /whoami` route
 * answering the process's pid, and `trellis build`'s dist/ made. `remove()` deletes the folder.
 */
export class ScaleProject {
  readonly work: string;
  readonly root: string;

  private constructor(work: string, root: string) {
    this.work = work;
    this.root = root;
  }

  static async create(): Promise<ScaleProject> {
    const work = mkdtempSync(join(tmpdir(), 'trellis-scale-'));
    try {
      await stageTrellis(join(work, 'trellis'));
      const { root } = await createProject({
        cwd: work,
        name: 'app',
        title: 'Scale Test API',
        description: 'Many processes, one database.',
        port: 8000,
        examples: resolveExamples(projectDefaults('app').examples),
        adminToken: TOKEN,
        db: true,
      });
      const config = join(root, 'config.yaml');
      writeFileSync(config, readFileSync(config, 'utf8').replace(/\bport: \d+/, 'port: 0'));
      writeFileSync(join(root, 'routers', 'whoami.ts'), WHOAMI_ROUTER);
      linkDependencies(root, join(work, 'trellis'));
      for (const name of ['kysely', 'pg', '@electric-sql']) symlinkSync(join(ROOT, 'node_modules', name), join(root, 'node_modules', name));
      const built = await runCli(['build', '.'], { cwd: root, timeoutMs: START_WITHIN_MS });
      if (built.code !== 0) throw new Error(`trellis build failed:\n${built.stdout}${built.stderr}`);
      return new ScaleProject(work, root);
    } catch (error) {
      rmSync(work, { recursive: true, force: true });
      throw error;
    }
  }

  /** The environment of a process on `database` (PORT 0 unless given). */
  env(database: ScratchDatabase, port = 0): NodeJS.ProcessEnv {
    return { DATABASE_URL: database.url, ADMIN_TOKEN: TOKEN, PORT: String(port), TRELLIS_SHUTDOWN_GRACE_MS: '5000' };
  }

  /** `trellis db migrate` on `database`: every migration of the project applied. */
  async migrate(database: ScratchDatabase): Promise<string> {
    const result = await runCli(['db', 'migrate', '.'], { cwd: this.root, env: this.env(database), timeoutMs: START_WITHIN_MS });
    if (result.code !== 0) throw new Error(`trellis db migrate failed:\n${result.stdout}${result.stderr}`);
    return result.stdout;
  }

  /** A built instance, `node dist/main.js`, on `port` (0: any), once its banner is printed; and its address. */
  async startBuilt(database: ScratchDatabase, port = 0): Promise<{ run: Running; url: string }> {
    const run = new Running([], this.root, { ...this.env(database, port), NO_COLOR: '1' }, [join('dist', 'main.js')]);
    return { run, url: await run.url(START_WITHIN_MS, BUILT_BANNER_END) };
  }

  /** `trellis run --workers N` (the project's sources, through this checkout's CLI) once its banner is printed; and its address. */
  async startWorkers(database: ScratchDatabase, workers: number): Promise<{ run: Running; url: string }> {
    const run = new Running(['.', '--host', '127.0.0.1', '--port', '0', '--workers', String(workers), '--no-access-log'], this.root, this.env(database));
    return { run, url: await run.url(START_WITHIN_MS) };
  }

  remove(): void {
    rmSync(this.work, { recursive: true, force: true });
  }
}
