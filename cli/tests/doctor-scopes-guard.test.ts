import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { analyse } from '../doctor/analyse';
import { cleanup, copyFixture } from './run-support';

after(cleanup);

const SECRET = 'doctor-secret-of-at-least-thirty-two-bytes';

/** The healthy project with a reports router whose handler needs `reports:read`, guarded by `guard` (a decorator line or ''). */
function scopedProject(guard: string): string {
  const dir = copyFixture('healthy');
  writeFileSync(
    join(dir, 'routers', 'reports.ts'),
    "import { Get, Scopes, Use, router } from 'trellis';\nimport { jwtAuth } from 'trellis/auth';\n\n" +
      `const guard = jwtAuth({ secret: '${SECRET}' });\n\n` +
      `${guard}export class ReportRouter extends router('/reports') {\n  @Get() @Scopes('reports:read') count() { return { count: guard ? 1 : 0 }; }\n}\n`,
  );
  return dir;
}

describe('trellis doctor and @Scopes', () => {
  it('reports a route needing scopes that no scope-aware guard covers, at its handler, without starting the app', async () => {
    const report = await analyse(scopedProject(''));
    const unguarded = report.errors.filter((finding) => finding.code === 'TRELLIS_ERR_SCOPES_UNGUARDED');
    assert.deepEqual(
      unguarded.map((finding) => [finding.file, finding.message]),
      [['routers/reports.ts', 'GET /reports (ReportRouter.count) needs scopes reports:read but no scope-aware guard covers it: put @Use(jwtAuth(...)) on the route or its router, or app.addMiddleware(jwtAuth(...))']],
    );
  });

  it('passes the same route behind @Use(jwtAuth(...)) on its router', async () => {
    const report = await analyse(scopedProject('@Use(guard)\n'));
    assert.deepEqual(report.errors.filter((finding) => finding.code === 'TRELLIS_ERR_SCOPES_UNGUARDED'), []);
  });
});
