import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { analyse } from '../doctor/analyse';
import { cleanup, copyFixture, runCli } from './run-support';

after(cleanup);

/** The healthy project with a request-scoped unit of work and `services/reports.ts`'s `Reports` (a singleton) taking it. */
function widenedProject(): string {
  const dir = copyFixture('healthy');
  writeFileSync(
    join(dir, 'services', 'unit_of_work.ts'),
    "import { Injectable, type RequestOutcome } from 'trellis';\nimport { Header } from 'trellis/param';\n\n" +
      "@Injectable({ scope: 'request' })\nexport class UnitOfWork {\n  constructor(@Header('X-Tenant', { default: null }) readonly tenant: string | null) {}\n" +
      '  onRequestEnd(outcome: RequestOutcome) { return outcome.ok; }\n}\n',
  );
  writeFileSync(
    join(dir, 'services', 'reports.ts'),
    "import { Injectable } from 'trellis';\nimport { UnitOfWork } from './unit_of_work';\n\n" +
      '@Injectable()\nexport class Reports {\n  constructor(private readonly uow: UnitOfWork) {}\n\n  count() { return this.uow.tenant ? 1 : 0; }\n}\n',
  );
  return dir;
}

describe('trellis doctor and request scope', () => {
  it('reports a singleton service taking a request-scoped provider at its class, without running the app', async () => {
    const dir = widenedProject();
    const report = await analyse(dir);
    const widening = report.errors.filter((finding) => finding.code === 'TRELLIS_ERR_SCOPE_WIDENING');
    assert.deepEqual(
      widening.map((finding) => `${finding.file}:${finding.line} ${finding.message.split(':')[0]}`),
      ['services/reports.ts:5 Reports lives for the whole app but depends on UnitOfWork, which lives for one request (Reports -> UnitOfWork)'],
    );

    const doctor = await runCli(['doctor', '.'], { cwd: dir });
    assert.equal(doctor.code, 1);
    assert.match(doctor.stdout, /error {3}services\/reports\.ts:5: Reports lives for the whole app but depends on UnitOfWork, .*\[TRELLIS_ERR_SCOPE_WIDENING\]/);
  });

  it('passes the same project once the service takes the unit of work per request, through a handler', async () => {
    const dir = widenedProject();
    writeFileSync(
      join(dir, 'services', 'reports.ts'),
      "import { Injectable } from 'trellis';\nimport { UnitOfWork } from './unit_of_work';\n\n" +
        "@Injectable({ scope: 'request' })\nexport class Reports {\n  constructor(private readonly uow: UnitOfWork) {}\n\n  count() { return this.uow.tenant ? 1 : 0; }\n}\n",
    );
    writeFileSync(
      join(dir, 'routers', 'reports.ts'),
      "import { Get, Injectable, router } from 'trellis';\nimport { Depends } from 'trellis/param';\nimport { Reports } from '../services/reports';\n\n" +
        "@Injectable()\nexport class ReportRouter extends router('/reports') {\n  @Get() count(@Depends() reports: Reports) { return { count: reports.count() }; }\n}\n",
    );
    const report = await analyse(dir);
    assert.deepEqual(report.errors, []);
    // Taken by a handler's @Depends(), so used: only the unit of work's own consumer counts.
    assert.deepEqual(report.warnings.filter((finding) => finding.code === 'unused-service'), []);
    const operation = report.routes.find((row) => row.path === '/reports');
    assert.equal(operation?.handler, 'ReportRouter.count');
  });
});
