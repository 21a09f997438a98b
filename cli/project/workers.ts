import cluster from 'node:cluster';
import { createServer, type AddressInfo } from 'node:net';
import { CliError } from '../cli-error';
import { messages } from '../messages';
import { addressFromEnvironment, configProblems, formatProblem, openProject, runtimeMessages, type Project } from 'trellis/internal';
import { ProjectError, serve, type ServeOptions } from 'trellis/runtime';
import { refuseWorkersOnEmbedded } from './embedded-database';
import { WorkerGroup, type FailedMessage } from './worker-group';

/** The flags of `trellis run` a cluster passes to its workers. */
export type WorkerOptions = Pick<ServeOptions, 'host' | 'port' | 'accessLog'>;

const say = (line: string) => process.stdout.write(`${line}\n`);

/**
 * `trellis run --workers N`: the primary process forks N workers (node:cluster, a {@link WorkerGroup}) that
 * share one listening socket (with `--port 0`, one free port chosen for all). The first worker starts alone
 * and prints the banner; the others start once it listens. A worker that dies is replaced. The primary
 * prints the shutdown lines itself (whichever workers are alive by then), stops every worker gracefully on
 * SIGINT/SIGTERM, and reports a startup error (a worker's own line), or requests cut off at the end of the
 * grace period, once (exit code 1).
 *
 * The workers accept connections themselves from the one listening socket (`SCHED_NONE`, as gunicorn and
 * uvicorn's workers do), rather than the primary accepting and handing each over (node's round-robin
 * default): a connection handed to a worker that dies before taking it stays open in the primary, never
 * answered (nodejs/node#21746). With a shared socket a connection waits in the kernel's queue until a live
 * worker takes it; one a dying worker had taken is closed with that worker.
 */
export async function runWorkers(path: string, count: number, options: WorkerOptions): Promise<void> {
  if (cluster.isWorker) return serveAsWorker(path, count, options);
  const project = openProject(path);
  const [problem] = configProblems(project);
  if (problem) throw new CliError(formatProblem(project.display, problem));
  refuseWorkersOnEmbedded(project, count);
  return supervise(count, await clusterPort(project, options));
}

/**
 * The port every worker listens on: `--port`, else PORT (from `env`), else config.yaml's. Workers share a
 * socket only when they ask for the same host and port, and a socket nobody listens on any more is closed;
 * so "any free port" (0) is chosen once, here.
 */
export async function clusterPort(project: Project, options: WorkerOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const fromEnvironment = addressFromEnvironment(env);
  const port = options.port ?? fromEnvironment.port ?? project.config.settings.server.port;
  return port === 0 ? freePort(options.host ?? fromEnvironment.host ?? project.config.settings.server.host) : port;
}

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      const unknownHost = error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN';
      reject(unknownHost ? new CliError(runtimeMessages.run.hostUnavailable(host)) : error);
    });
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Sets node:cluster up for a primary: workers accept from the shared socket themselves (see {@link runWorkers}).
 * Call before the first fork.
 */
export function setUpCluster(): void {
  cluster.schedulingPolicy = cluster.SCHED_NONE;
}

/**
 * A cluster worker: serves on `TRELLIS_CLUSTER_PORT`, prints the banner if it is the first
 * (`TRELLIS_CLUSTER_FIRST`), never the shutdown lines (the primary prints them). An error meant for the user
 * (a startup hook failing, the port taken) goes to the primary in a {@link FailedMessage}, which reports it.
 */
export async function serveAsWorker(path: string, count: number, options: WorkerOptions): Promise<void> {
  try {
    const port = Number(process.env.TRELLIS_CLUSTER_PORT);
    const first = process.env.TRELLIS_CLUSTER_FIRST === '1';
    await serve(path, { ...options, port, banner: first, shutdownLines: false, workers: count });
  } catch (error) {
    // The primary prints it once and exits non-zero; this worker just ends.
    if (!(error instanceof ProjectError || error instanceof CliError)) throw error;
    process.send?.({ trellis: 'failed', message: error.message } satisfies FailedMessage);
  } finally {
    cluster.worker?.disconnect(); // the cluster channel would keep this process alive
  }
}

function supervise(count: number, port: number): Promise<void> {
  setUpCluster();
  return new Promise((resolve, reject) => {
    let failure: CliError | undefined;
    let announced = false; // the banner was printed: a signal prints the shutdown lines
    let said = false;
    let stopping = false;
    const group = new WorkerGroup(count, { TRELLIS_CLUSTER_PORT: String(port) }, {
      serving: () => (announced = true),
      listening: () => {},
      failed: (message) => {
        failure ??= new CliError(message ?? messages.run.workerFailed);
        stop();
      },
      problem: (message) => {
        if (stopping) failure ??= new CliError(message);
        else process.stderr.write(`trellis: ${message}\n`);
      },
      stopped: () => {
        process.off('SIGINT', stop).off('SIGTERM', stop);
        if (said) say(runtimeMessages.run.stopped);
        if (failure) reject(failure);
        else resolve();
      },
    });
    const stop = (signal?: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      said = announced && signal !== undefined;
      if (said) say(runtimeMessages.run.shuttingDown(signal!));
      group.stop();
    };
    process.on('SIGINT', stop).on('SIGTERM', stop);
    group.start();
  });
}
