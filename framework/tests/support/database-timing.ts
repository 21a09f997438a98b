// Time to a fresh migrated test database (docs/reference/database.md): the first (opens the process's PGlite),
// then each next one, 30 times. Run: node --require ./register.js framework/tests/support/database-timing.ts
import { join } from 'node:path';
import { BaseRouter } from '../../index';
import { testDatabase } from '../../database';
import { TestClient } from '../../testing';
import { createLogger } from '../../logger';

const MIGRATIONS = join(__dirname, '..', 'fixtures', 'database', 'migrations');
async function once(): Promise<number> {
  const since = performance.now();
  const client = new TestClient(new BaseRouter({ logger: createLogger({ level: 'silent' }), sourceTypes: false }).register(testDatabase({ migrations: MIGRATIONS })));
  await client.start();
  const started = performance.now() - since;
  await client.close();
  return started;
}
(async () => {
  const cpu0 = process.cpuUsage();
  const first = await once();
  const cpu = process.cpuUsage(cpu0);
  const next: number[] = [];
  for (let i = 0; i < 30; i++) next.push(await once());
  next.sort((a, b) => a - b);
  console.log(JSON.stringify({ cache: process.env.TRELLIS_CACHE ?? 'on', firstMs: Math.round(first), firstCpuMs: Math.round((cpu.user + cpu.system) / 1000), nextMedianMs: +next[15].toFixed(1), nextMinMs: +next[0].toFixed(1), nextMaxMs: +next[29].toFixed(1) }));
})();
