import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent } from 'node:http';
import { send } from './load';
import { runProject } from '../support/sample-server';

/** A router added to the sample for this run: answers after `ms` milliseconds. */
export function addSlowRouter(projectDir: string): void {
  writeFileSync(
    join(projectDir, 'routers', 'slow.ts'),
    `import { Get, router } from 'trellis';
import { Int, Query } from 'trellis/param';

export class SlowRouter extends router('/slow') {
  @Get() async wait(@Query('ms', { type: Int, default: 1000 }) ms: number) {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return { waited: ms };
  }
}
`,
  );
}

export interface ShutdownFigures {
  inFlight: number;
  completedWith200: number;
  refusedAfterSignal: boolean;
  exitCode: number | null;
  secondsToExit: number;
}

/** SIGTERM while `count` requests of 1-2 s are in flight. */
export async function shutdown(projectDir: string, count = 200): Promise<ShutdownFigures> {
  const app = await runProject(projectDir);
  const agent = new Agent({ keepAlive: true, maxSockets: count });
  const requests = Array.from({ length: count }, (_, i) =>
    send(app.port, agent, { method: 'GET', path: `/slow?ms=${1000 + Math.round((1000 * i) / count)}`, malformed: false }),
  );
  await new Promise((resolve) => setTimeout(resolve, 300)); // all of them reach the handler
  const signalled = performance.now();
  const exit = app.stop('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 100));
  const late = await send(app.port, new Agent(), { method: 'GET', path: '/tasks/1', malformed: false });
  const outcomes = await Promise.all(requests);
  const exitCode = await exit;
  agent.destroy();
  return {
    inFlight: count,
    completedWith200: outcomes.filter((o) => o.status === 200).length,
    refusedAfterSignal: late.status === 0,
    exitCode,
    secondsToExit: (performance.now() - signalled) / 1000,
  };
}
