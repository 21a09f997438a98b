import cluster, { type Worker } from 'node:cluster';
import { createServer, type AddressInfo } from 'node:net';
import { CliError } from '../cli-error';
import { messages } from '../messages';
import { addressFromEnvironment, configProblems, formatProblem, openProject, ProjectError, serve, type ListeningMessage, type ServeOptions, type StopMessage } from '../../runtime';
import { RestartBackoff } from './restart-backoff';

interface FailedMessage {
  trellis: 'failed';
  message: string;
}
type WorkerMessage = ListeningMessage | FailedMessage;

/**
 * `trellis run --workers N`: the primary process forks N workers (node:cluster) that share one listening
 * socket (with `--port 0`, one free port chosen for all). The first worker starts alone and prints the banner;
 * the others start once it listens. A worker that dies is replaced, after a delay that doubles with each
 * crash in a row (100 ms up to 5 s: {@link RestartBackoff}); SIGINT/SIGTERM stop every worker gracefully.
 * A startup error, or requests cut off at the end of the grace period, is reported once, by the primary
 * (exit code 1).
 *
 * The workers accept connections themselves from the one listening socket (`SCHED_NONE`, as gunicorn and
 * uvicorn's workers do), rather than the primary accepting and handing each over (node's round-robin
 * default): a connection handed to a worker that dies before taking it stays open in the primary, never
 * answered (nodejs/node#21746). With a shared socket a connection waits in the kernel's queue until a live
 * worker takes it; one a dying worker had taken is closed with that worker.
 */
export async function runWorkers(path: string, count: number, options: Pick<ServeOptions, 'host' | 'port' | 'accessLog'>): Promise<void> {
  if (cluster.isWorker) return work(path, count, options);
  return supervise(count, await clusterPort(path, options));
}

/**
 * The port every worker listens on. Workers share a socket only when they ask for the same host and port,
 * and a socket nobody listens on any more is closed; so "any free port" (0) is chosen once, here.
 */
async function clusterPort(path: string, options: Pick<ServeOptions, 'host' | 'port' | 'accessLog'>): Promise<number> {
  const project = openProject(path);
  const [problem] = configProblems(project);
  if (problem) throw new CliError(formatProblem(project.display, problem));
  const fromEnvironment = addressFromEnvironment();
  const port = options.port ?? fromEnvironment.port ?? project.config.settings.server.port;
  return port === 0 ? freePort(options.host ?? fromEnvironment.host ?? project.config.settings.server.host) : port;
}

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function work(path: string, count: number, options: Pick<ServeOptions, 'host' | 'port' | 'accessLog'>): Promise<void> {
  try {
    const port = Number(process.env.TRELLIS_CLUSTER_PORT);
    await serve(path, { ...options, port, banner: process.env.TRELLIS_CLUSTER_FIRST === '1', workers: count });
  } catch (error) {
    // The primary prints it once and exits non-zero; this worker just ends.
    if (!(error instanceof ProjectError || error instanceof CliError)) throw error;
    process.send?.({ trellis: 'failed', message: error.message } satisfies FailedMessage);
  } finally {
    cluster.worker?.disconnect(); // the cluster channel would keep this process alive
  }
}

function supervise(count: number, port: number): Promise<void> {
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  return new Promise((resolve, reject) => {
    // Every live worker, and whether it serves yet (one still loading cannot take a stop message yet).
    const live = new Map<Worker, boolean>();
    let started = false;
    let stopping = false;
    const backoff = new RestartBackoff();
    const restarts = new Set<NodeJS.Timeout>(); // replacements waiting for their delay

    const fork = (first = false) => {
      const worker = cluster.fork({ TRELLIS_CLUSTER_PORT: String(port), ...(first && { TRELLIS_CLUSTER_FIRST: '1' }) });
      let listening = false;
      let since = 0;
      live.set(worker, false);
      // A message to a worker that has just died (ours, or node:cluster's own) fails with EPIPE on the Worker;
      // unhandled, that error would end the primary. The worker's 'exit' follows and is handled below.
      worker.on('error', () => {});
      worker.on('message', (message: WorkerMessage) => {
        if (message?.trellis === 'listening') {
          listening = true;
          since = Date.now();
          live.set(worker, true);
          if (stopping) worker.send({ trellis: 'stop' } satisfies StopMessage);
          else if (!started) {
            started = true;
            process.send?.(message); // to a reload supervisor, if any
            for (let i = 1; i < count; i++) fork();
          }
        } else if (message?.trellis === 'failed') fail(message.message);
      });
      worker.on('exit', (code) => {
        live.delete(worker);
        if (stopping) {
          if (live.size === 0) finish();
        } else if (!listening) fail(messages.run.workerFailed);
        else {
          const { delayMs: delay, streak } = backoff.next(Date.now() - since);
          process.stderr.write(`trellis: ${messages.run.workerExited(worker.process.pid ?? 0, code, delay, streak)}\n`);
          const timer = setTimeout(() => {
            restarts.delete(timer);
            fork();
          }, delay);
          restarts.add(timer);
        }
      });
    };

    const stopAll = () => {
      if (stopping) return;
      stopping = true;
      for (const timer of restarts) clearTimeout(timer);
      restarts.clear();
      if (live.size === 0) finish();
      for (const [worker, serving] of live) {
        if (serving) worker.send({ trellis: 'stop' } satisfies StopMessage);
        else worker.process.kill('SIGTERM');
      }
    };
    const onMessage = (message: StopMessage) => message?.trellis === 'stop' && stopAll();
    const finish = () => {
      process.off('SIGINT', stopAll).off('SIGTERM', stopAll).off('message', onMessage);
      if (failure) reject(failure);
      else resolve();
    };
    let failure: CliError | undefined;
    // The first failure is the one reported: a startup error, or a worker that had to cut requests off while stopping.
    const fail = (message: string) => {
      failure ??= new CliError(message);
      stopAll();
    };

    process.on('SIGINT', stopAll).on('SIGTERM', stopAll).on('message', onMessage); // a reload supervisor's stop
    fork(true);
  });
}
