import type { AddressInfo } from 'node:net';
import { listen } from '../framework/index';
import type { RequestListener, Server, UpgradeListener } from '../framework/internal';
import { ProjectError } from './project-error';
import type { ProjectSettings } from './config-schema';
import { messages } from './messages';
import { withAccessLog } from './access-log';
import { bannerLines, urlOf } from './banner';
import { exitOnUncaughtError } from './crash';
import { loadProject, startProject } from './load';
import { loadBuild } from './load-build';
import { RunLog } from './run-log';
import { gracePeriod, stopOnSignals } from './shutdown';

/**
 * How {@link serve} runs: the CLI's flags, and whether it serves a build. What is not given comes from
 * config.yaml's `server:` section, then the defaults.
 *
 * @example
 * ```ts
 * await serve('.', { host: '0.0.0.0', port: 8080, accessLog: false });
 * ```
 */
export interface ServeOptions {
  host?: string;
  port?: number;
  /** Print the banner (only the first cluster worker does). */
  banner?: boolean;
  /** Print the shutdown lines (`Shutting down...`, `Stopped.`); as `banner` when not given (a cluster's primary prints them itself). */
  shutdownLines?: boolean;
  /** Cluster size, shown in the banner when more than one. */
  workers?: number;
  /** One line per request on stdout; config.yaml's `server.access_log` (on by default) when not given. */
  accessLog?: boolean;
  /** `path` is a build folder (`trellis build`'s output): served from its manifest, no source read. */
  build?: boolean;
}

/** What a serving process tells its parent (the reload supervisor or the cluster primary), if it has one. */
export interface ListeningMessage {
  trellis: 'listening';
  port: number;
}

const say = (line: string) => process.stdout.write(`${line}\n`);

/**
 * `trellis run` in this process (and a build's `main.js`, with `build: true`): loads the project, listens
 * (flag > PORT/HOST > config.yaml > localhost:8000), prints the banner, logs each request, and resolves after a graceful stop on SIGINT/SIGTERM. When requests
 * in flight were cut off (the grace period ran out, or a second signal came), it fails: exit code 1.
 *
 * @example
 * ```ts
 * await serve('.', { port: 0, accessLog: false }); // resolves after SIGINT/SIGTERM and a graceful stop
 * ```
 */
export async function serve(path: string, options: ServeOptions = {}): Promise<void> {
  const graceMs = gracePeriod();
  const log = new RunLog();
  const load = options.build ? loadBuild : loadProject;
  const { project, discovery, app, address } = load(path, { host: options.host, port: options.port, logger: log.logger });
  // Startup hooks run before the port opens: a failing one means no port, exit 1.
  await startProject({ project, app });
  const { host, port } = address;
  const accessLog = options.accessLog ?? project.config.settings.server.access_log;
  const listener = accessLog ? withAccessLog(app.handler, log) : app.handler;
  const server = await listenOrExplain(listener, app.upgrade, host, port, project.config.settings.server, options.build === true).catch(async (error) => {
    await app.stop();
    throw error;
  });
  exitOnUncaughtError(server, log);
  // Signals are taken before the banner says the app is up: a SIGTERM sent on reading it stops it gracefully.
  const stopped = stopOnSignals(server, app, log, (options.shutdownLines ?? options.banner) === false ? () => {} : say, graceMs, project.config.settings.server.shutdown_delay);
  const actual = (server.address() as AddressInfo).port;
  if (options.banner !== false) for (const line of bannerLines(project, discovery, urlOf(host, actual), options.workers)) say(line);
  process.send?.({ trellis: 'listening', port: actual } satisfies ListeningMessage);
  const outcome = await stopped;
  if (outcome === 'grace-expired') throw new ProjectError(messages.run.graceExpired(graceMs));
  if (outcome === 'interrupted') throw new ProjectError(messages.run.interrupted);
}

async function listenOrExplain(
  listener: RequestListener,
  upgrade: UpgradeListener | undefined,
  host: string,
  port: number,
  server: ProjectSettings['server'],
  built: boolean,
): Promise<Server> {
  try {
    return await listen(listener, {
      host,
      port,
      headersTimeout: server.headers_timeout,
      requestTimeout: server.request_timeout,
      bodyTimeout: server.body_timeout,
      sendTimeout: server.send_timeout,
      maxConnections: server.max_connections,
    }, upgrade);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new ProjectError(messages.run.portInUse(host, port, built));
    if (code === 'EACCES') throw new ProjectError(messages.run.portDenied(host, port, built));
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') throw new ProjectError(messages.run.hostUnavailable(host, built));
    throw new ProjectError(messages.run.listenFailed(host, port, error instanceof Error ? error.message : String(error)));
  }
}
