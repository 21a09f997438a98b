import { fork, type ChildProcess } from 'node:child_process';
import { watch, type FSWatcher } from 'node:fs';
import { join, resolve } from 'node:path';
import { packageRoot } from '../../generators/paths';
import { messages } from '../messages';
import { DOTENV_FILE, openProject, type ListeningMessage, type StopMessage } from '../../runtime';

export interface ReloadOptions {
  host?: string;
  port?: number;
  workers: number;
  accessLog?: boolean;
}

const BIN = join(packageRoot, 'bin', 'trellis.js');
const DEBOUNCE_MS = 150;
// Changes here never change what the server does (static files are read per request; dist/ is what
// `trellis build` writes, which `run` does not serve).
const IGNORED = /^(node_modules|\.git|tests|static|dist)(\/|$)|(^|\/)\.|~$|\.sw.$/;

/**
 * `trellis run --reload`: serves the project in a child process and starts a fresh one whenever a project
 * file changes (routers, services, middleware, config.yaml, templates...). The first child's port (even
 * with `--port 0`) is kept for the next ones. A child that fails to start is reported and the supervisor
 * waits for the next change. SIGINT/SIGTERM stop the child gracefully, then the supervisor.
 */
export function superviseReload(path: string, options: ReloadOptions): Promise<void> {
  // A wrong path fails here, once, not in a restart loop. Each child loads .env itself, so an edit of it
  // is seen on the next restart.
  const project = openProject(path, { dotenv: false });
  return new Promise((done) => {
    let child: ChildProcess | undefined;
    let ready = false;
    let port = options.port;
    let stopping = false;
    let pending: string | undefined;
    let timer: NodeJS.Timeout | undefined;

    const start = () => {
      const args = ['run', path, '--workers', String(options.workers)];
      if (options.host !== undefined) args.push('--host', options.host);
      if (port !== undefined) args.push('--port', String(port));
      if (options.accessLog !== undefined) args.push(options.accessLog ? '--access-log' : '--no-access-log');
      const current = fork(BIN, args, { stdio: 'inherit' });
      child = current;
      ready = false;
      current.on('message', (message: ListeningMessage) => {
        if (message?.trellis !== 'listening') return;
        port = message.port;
        ready = true;
      });
      current.on('exit', (code) => {
        if (child === current) child = undefined;
        if (stopping) return finish();
        if (pending !== undefined) return restart();
        if (code !== 0) process.stdout.write(`${messages.run.reloadWaiting}\n`);
      });
    };

    // A child still loading has nothing to finish (and may not listen for the message yet).
    const stopChild = (running: ChildProcess) => {
      if (ready) running.send({ trellis: 'stop' } satisfies StopMessage);
      else running.kill('SIGTERM');
    };

    const restart = () => {
      const file = pending!;
      pending = undefined;
      process.stdout.write(`${messages.run.reloading(file)}\n`);
      start();
    };

    const changed = (file: string) => {
      if (stopping || (IGNORED.test(file) && file !== DOTENV_FILE)) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        pending = file;
        if (child) stopChild(child);
        else restart();
      }, DEBOUNCE_MS);
    };

    const watcher: FSWatcher = watch(resolve(project.dir), { recursive: true }, (_event, name) => {
      if (name) changed(String(name).split('\\').join('/'));
    });

    const stop = () => {
      stopping = true;
      clearTimeout(timer);
      if (child) stopChild(child);
      else finish();
    };
    const finish = () => {
      watcher.close();
      process.off('SIGINT', stop).off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop).on('SIGTERM', stop);
    start();
  });
}
