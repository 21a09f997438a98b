import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A router added to the sample for the hostile phase, doing what real apps do: `GET /hostile/big` answers
 * ~5 MB of JSON, `GET /hostile/crash` answers and then throws outside the request path (the process state is
 * lost: under --workers the worker is replaced), `GET /hostile/pid` tells which process answered.
 */
export function addHostileRouter(projectDir: string): void {
  writeFileSync(
    join(projectDir, 'routers', 'hostile.ts'),
    `import { Get, router } from 'trellis';

const BIG = Array.from({ length: 50_000 }, (_, id) => ({ id, name: 'item ' + id, note: 'x'.repeat(64) }));

export class HostileRouter extends router('/hostile') {
  @Get('/big') big() {
    return BIG;
  }

  @Get('/crash') crash() {
    setTimeout(() => {
      throw new Error('boom: a crash outside the request path');
    }, 20);
    return { crashing: process.pid };
  }

  @Get('/pid') pid() {
    return { pid: process.pid };
  }
}
`,
  );
}
