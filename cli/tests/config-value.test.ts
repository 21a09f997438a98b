import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { defaultTrellisRange } from '../../generators/dependencies';
import { http, runCli, Running } from './run-support';

// The sample project as `trellis create` writes it, with the admin example (middleware/require_token.ts).
let dir: string;
let config: string;
const running: Running[] = [];
before(async () => {
  const parent = mkdtempSync(join(tmpdir(), 'trellis-config-value-'));
  const created = await runCli(['create', 'demo', '--examples', 'admin', '--no-git', '--no-install', '--title', 'Demo', '--description', 'D', '--trellis-spec', defaultTrellisRange], { cwd: parent });
  assert.equal(created.code, 0, created.stderr);
  dir = join(parent, 'demo');
  config = readFileSync(join(dir, 'config.yaml'), 'utf8');
});
after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  if (dir) rmSync(join(dir, '..'), { recursive: true, force: true });
});

/** config.yaml with its `admin:` section (the last one) replaced by `admin` (one or more lines). */
function withAdmin(admin: string): void {
  assert.match(config, /^admin:\n  # .*\n  token: .*\n$/m);
  writeFileSync(join(dir, 'config.yaml'), config.replace(/^admin:\n[\s\S]*$/m, `${admin}\n`));
}

describe("the sample's admin section (config.section('admin', AdminSettings))", () => {
  const adminLine = () => config.split('\n').findIndex((line) => line.startsWith('admin:')) + 1;
  // [admin section, [line below admin:, message] of each problem, in order]
  for (const [admin, problems] of [
    ['admin: { token: true }', [[0, 'admin.token must be a string']]],
    ['admin: { token: false }', [[0, 'admin.token must be a string']]],
    ['admin: { token: [a, b] }', [[0, 'admin.token must be a string']]],
    ['admin: { token: { x: 1 } }', [[0, 'admin.token must be a string']]],
    ['admin: { token: 12345 }', [[0, 'admin.token must be a string']]],
    ["admin: { token: '' }", [[0, 'admin.token should not be empty']]],
    ['admin: { token: }', [[0, 'admin.token has no value (it must be a string)']]],
    ['admin:\n  # the token\n  token: [s3cret]', [[2, 'admin.token must be a string']]],
    [
      'admin: { tokn: s3cret }',
      [
        [0, 'admin.tokn is not a setting of AdminSettings (its settings are token)'],
        [0, 'admin.token is not set (it must be a string)'],
      ],
    ],
    [
      'admin:\n  token: 7\n  realm: s3cret',
      [
        [2, 'admin.realm is not a setting of AdminSettings (its settings are token)'],
        [1, 'admin.token must be a string'],
      ],
    ],
  ] as const) {
    it(`stops run at the first problem's line, doctor listing each, when it is ${admin.replace(/\n\s*/g, ' ')}`, async () => {
      withAdmin(admin);
      const lines = problems.map(([below, message]) => `demo/config.yaml:${adminLine() + below}: ${message}`);
      const run = await runCli(['run', 'demo', '--port', '0'], { cwd: join(dir, '..') });
      assert.deepEqual([run.code, run.stdout, run.stderr], [1, '', `trellis: ${lines[0]}\n`]);
      assert.doesNotMatch(run.stderr, /s3cret/);
      const doctor = await runCli(['doctor', 'demo'], { cwd: join(dir, '..') });
      assert.equal(doctor.code, 1);
      const listed = lines.map((line) => ` {2}error {3}${escape(line)} \\[config\\]\\n`).join('');
      assert.match(doctor.stdout, new RegExp(`^Errors:\\n${listed}`, 'm'));
      assert.match(doctor.stdout, new RegExp(`, ${lines.length} errors?, `));
      assert.doesNotMatch(doctor.stdout, /s3cret/);
    });
  }

  it('lets requests with the configured token through, and only those', async () => {
    withAdmin('admin: { token: "s3cret token" }');
    const doctor = await runCli(['doctor', 'demo'], { cwd: join(dir, '..') });
    assert.equal(doctor.code, 0, doctor.stdout);
    const run = new Running(['.', '--port', '0'], dir);
    running.push(run);
    const url = await run.url();
    assert.equal((await http(`${url}/admin/stats`, { headers: { authorization: 'Bearer s3cret token' } })).status, 200);
    for (const authorization of ['Bearer s3cret', 'Bearer [object Object]', 'Bearer true', '']) {
      assert.equal((await http(`${url}/admin/stats`, { headers: { authorization } })).status, 401, authorization);
    }
    run.kill('SIGTERM');
    assert.equal((await run.exited).code, 0);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
