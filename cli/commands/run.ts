import type { Command } from 'commander';
import { CliError } from '../cli-error';
import { messages } from '../messages';
import { requireCompiler } from './compiler';

interface RunFlags {
  host?: string;
  port?: string;
  reload?: boolean;
  workers?: string;
  accessLog?: boolean;
}

/** `trellis run <path> [--host] [--port] [--reload] [--workers N] [--no-access-log]` */
export function registerRun(program: Command): void {
  program
    .command('run')
    .description(messages.run.description)
    .argument('[path]', 'the project folder', '.')
    .option('--host <host>', 'address to listen on (default: config.yaml server.host, else localhost)')
    .option('--port <port>', 'port to listen on; 0 picks a free one (default: config.yaml server.port, else 8000)')
    .option('--reload', 'restart when a project file changes')
    .option('--workers <n>', 'processes sharing the port (node:cluster)', '1')
    // Both forms, so that "not given" (config.yaml decides) differs from "on".
    .option('--access-log', 'log one line per request on stdout, JSON (pino-pretty on a terminal) (default: config.yaml server.access_log, else on)')
    .option('--no-access-log', 'no line per request (errors and request.log lines are still logged)')
    .action(async (path: string, flags: RunFlags) => {
      requireCompiler();
      // The runtime loads the framework: imported when the command runs, not when the CLI declares it; from
      // the package's runtime bundle when it has one.
      (await import('../project/runtime-bundle')).useRuntimeBundle();
      const runtime = await import('trellis/runtime');
      const checks = await import('trellis/internal');
      const host = flags.host === undefined ? undefined : parseHost(checks, flags.host);
      const port = flags.port === undefined ? undefined : parsePort(checks, flags.port);
      const workers = parseWorkers(flags.workers ?? '1');
      const { accessLog } = flags;
      if (flags.reload) return (await import('../project/reload')).superviseReload(path, { host, port, workers, accessLog });
      if (workers > 1) return (await import('../project/workers')).runWorkers(path, workers, { host, port, accessLog });
      return runtime.serve(path, { host, port, accessLog });
    });
}

type Checks = typeof import('trellis/internal');

function parsePort({ portCheck }: Checks, text: string): number {
  const port = /^\d+$/.test(text) ? Number(text) : NaN;
  if (portCheck(port)) throw new CliError(messages.run.badPort(text));
  return port;
}

function parseHost({ hostCheck }: Checks, text: string): string {
  if (hostCheck(text)) throw new CliError(messages.run.badHost(text));
  return text;
}

function parseWorkers(text: string): number {
  const workers = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(workers >= 1 && workers <= 256)) throw new CliError(messages.run.badWorkers(text));
  return workers;
}
