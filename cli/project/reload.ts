import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CliError } from '../cli-error';
import { messages } from '../messages';
import { configProblems, DOTENV_FILE, formatProblem, openProject, runtimeMessages } from 'trellis/internal';
import { ProjectError } from 'trellis/runtime';
import { WorkerGroup } from './worker-group';
import { watchTree } from './watch-tree';
import { clusterPort, serveAsWorker, setUpCluster, type WorkerOptions } from './workers';
import { embeddedDatabaseFiles, refuseWorkersOnEmbedded, usesEmbeddedDatabase } from './embedded-database';

export interface ReloadOptions extends WorkerOptions {
  workers: number;
}

const DEBOUNCE_MS = 150;
// Changes here never change what the server does (static files are read per request; dist/ is what
// `trellis build` writes, which `run` does not serve).
const IGNORED = /^(node_modules|\.git|tests|static|dist)(\/|$)|(^|\/)\.|~$|\.sw.$/;
const ignored = (path: string) => IGNORED.test(path) && path !== DOTENV_FILE;

const say = (line: string) => process.stdout.write(`${line}\n`);
const warn = (line: string) => process.stderr.write(`trellis: ${line}\n`);

/**
 * `trellis run --reload`: serves the project from cluster workers (a {@link WorkerGroup} of `--workers`, 1
 * by default) and starts a new group whenever a project file changes (routers, services, middleware,
 * config.yaml, templates, .env...). The old group keeps serving until every worker of the new one listens,
 * then drains and stops: the workers share the listening socket the primary holds for them (node:cluster),
 * so no connection is refused across a reload. A new version that fails to start is reported and the old
 * one keeps serving until the next change. The port is chosen once (also with `--port 0`). Folders are
 * watched, not files ({@link watchTree}): rename-style saves, new and deleted files and folders are all seen.
 * SIGINT/SIGTERM stop every worker gracefully, then the primary.
 */
export function superviseReload(path: string, options: ReloadOptions): Promise<void> {
  if (cluster.isWorker) return serveAsWorker(path, options.workers, options);
  // A wrong path fails here, once, not in a restart loop. The primary never loads .env into its own
  // environment, which the workers inherit: each loads it itself, so an edit of it is seen on the next start.
  const project = openProject(path, { dotenv: false });
  // Read with .env (into a copy of the environment): config.yaml may need a variable only .env sets (the sample's
  // ADMIN_TOKEN), without which its database section, so the embedded folder, would be unknown.
  const withEnv = openProject(path, { env: { ...process.env } });
  // --workers on the embedded database stops here, once, rather than waiting for a change that cannot help.
  refuseWorkersOnEmbedded(withEnv, options.workers);
  setUpCluster();
  return new Promise((resolve, reject) => {
    let port: number | undefined;
    let current: WorkerGroup | undefined; // serving
    let next: WorkerGroup | undefined; // starting, to take over from `current`
    const groups = new Set<WorkerGroup>(); // every group with workers alive
    const endings = new Map<WorkerGroup, Array<() => void>>(); // who waits for a group's last worker to exit
    const ended = (group: WorkerGroup) =>
      new Promise<void>((resolve) => (groups.has(group) ? endings.set(group, [...(endings.get(group) ?? []), resolve]) : resolve()));
    let launches = 0;
    let announced = false; // a banner was printed: a signal prints the shutdown lines
    let said = false;
    let stopping = false;
    let failure: CliError | undefined;
    let changes: string[] = [];
    let timer: NodeJS.Timeout | undefined;

    const launch = async (file?: string) => {
      const launch = ++launches;
      if (file !== undefined) say(messages.run.reloading(file));
      next?.stop(); // superseded by this change
      next = undefined;
      let version: Version;
      try {
        version = await readVersion(path, options, port);
      } catch (error) {
        if (!(error instanceof ProjectError || error instanceof CliError)) throw error;
        warn(error.message);
        return say(current ? messages.run.reloadKept : messages.run.reloadWaiting);
      }
      port ??= version.port;
      if (stopping || launch !== launches) return;
      if (version.embedded) {
        // The old version holds the embedded database's lock until it exits: it stops first (a moment with no
        // server, in development only), then the new one opens the folder.
        current?.stop();
        current = undefined;
        await Promise.all([...groups].map(ended));
        if (stopping || launch !== launches) return;
      }
      const group: WorkerGroup = new WorkerGroup(options.workers, { TRELLIS_CLUSTER_PORT: String(port) }, {
        serving: () => {
          announced = true;
          // Nothing to take over from: it serves from its first worker on (and is not superseded by the next change).
          if (group === next && !current) [current, next] = [group, undefined];
        },
        listening: () => {
          if (group !== next) return;
          const previous = current;
          [current, next] = [group, undefined];
          previous?.stop();
        },
        failed: (message) => {
          if (message !== undefined) warn(message);
          if (group === next) next = undefined;
          if (group === current) current = undefined;
          say(current ? messages.run.reloadKept : messages.run.reloadWaiting);
        },
        problem: (message) => {
          if (stopping) failure ??= new CliError(message);
          else warn(message);
        },
        stopped: () => {
          groups.delete(group);
          for (const resolve of endings.get(group) ?? []) resolve();
          endings.delete(group);
          if (stopping && groups.size === 0) finish();
        },
      });
      next = group;
      groups.add(group);
      group.start();
    };

    const changed = (file: string) => {
      if (stopping) return;
      changes.push(file);
      clearTimeout(timer);
      timer = setTimeout(() => {
        // A rename-style save also names its temporary file, gone by now: name the file that is there.
        const named = [...changes].reverse().find((name) => existsSync(join(project.dir, name))) ?? changes.at(-1)!;
        changes = [];
        launch(named).catch(fatal);
      }, DEBOUNCE_MS);
    };
    const isData = embeddedDatabaseFiles(withEnv);
    const watcher = watchTree(project.dir, (path) => ignored(path) || isData(path), changed);

    const stop = (signal?: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      clearTimeout(timer);
      watcher.close();
      said = announced && signal !== undefined;
      if (said) say(runtimeMessages.run.shuttingDown(signal!));
      for (const group of groups) group.stop();
      if (groups.size === 0) finish();
    };
    const finish = () => {
      process.off('SIGINT', stop).off('SIGTERM', stop);
      if (said) say(runtimeMessages.run.stopped);
      if (failure) reject(failure);
      else resolve();
    };
    // Not a line for the user (a port probe that failed...): everything stops, and the error is reported.
    const fatal = (error: unknown) => {
      failure ??= error instanceof CliError ? error : new CliError(messages.unexpected(error instanceof Error ? error.message : String(error)));
      stop();
    };
    process.on('SIGINT', stop).on('SIGTERM', stop);
    launch().catch(fatal);
  });
}

/** What a new version's start depends on: its port, and whether it serves from the embedded database. */
interface Version {
  port: number;
  embedded: boolean;
}

/**
 * config.yaml and .env as they are now, read without changing this process's environment: the port (chosen once:
 * `chosen` once there is one), and whether the embedded database is used. `.env` is read before config.yaml is
 * checked: its `${NAME}` references see what a worker will see.
 */
async function readVersion(path: string, options: ReloadOptions, chosen: number | undefined): Promise<Version> {
  const env = { ...process.env };
  const project = openProject(path, { env });
  const [problem] = configProblems(project);
  if (problem) throw new CliError(formatProblem(project.display, problem));
  refuseWorkersOnEmbedded(project, options.workers);
  return { port: chosen ?? (await clusterPort(project, options, env)), embedded: usesEmbeddedDatabase(project) };
}
