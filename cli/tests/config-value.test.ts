import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { http, runCli, Running } from './run-support';

// The sample project as `trellis create` writes it, with the admin example (middleware/require_token.ts).
let dir: string;
let config: string;
const running: Running[] = [];
before(async () => {
  const parent = mkdtempSync(join(tmpdir(), 'trellis-config-value-'));
  const created = await runCli(['create', 'demo', '--examples', 'admin', '--no-git', '--no-install', '--title', 'Demo', '--description', 'D'], { cwd: parent });
  assert.equal(created.code, 0, created.stderr);
  dir = join(parent, 'demo');
  config = readFileSync(join(dir, 'config.yaml'), 'utf8');
});
after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  if (dir) rmSync(join(dir, '..'), { recursive: true, force: true });
});

/** config.yaml with its `admin:` line replaced by `admin` (one or more lines). */
function withAdmin(admin: string): void {
  assert.match(config, /^admin: .*$/m);
  writeFileSync(join(dir, 'config.yaml'), config.replace(/^admin: .*$/m, admin));
}

describe("the sample's admin.token", () => {
  const adminLine = () => config.split('\n').findIndex((line) => line.startsWith('admin:')) + 1;
  for (const [admin, got, below] of [
    ['admin: { token: true }', 'true', 0],
    ['admin: { token: false }', 'false', 0],
    ['admin: { token: [a, b] }', 'a list', 0],
    ['admin: { token: { x: 1 } }', 'a mapping', 0],
    ['admin: { token: 12345 }', 'a number', 0],
    ["admin: { token: '' }", 'an empty string', 0],
    ['admin: { token: }', 'null (no value)', 0],
    ['admin:\n  # the token\n  token: [s3cret]', 'a list', 2],
    ['admin: { tokn: s3cret }', 'nothing (it is not set)', 0],
  ] as const) {
    it(`stops run and doctor at its line when it is ${admin.replace(/\n\s*/g, ' ')}`, async () => {
      withAdmin(admin);
      const message = `demo/config.yaml:${adminLine() + below}: admin.token must be a non-empty string, got ${got}`;
      const run = await runCli(['run', 'demo', '--port', '0'], { cwd: join(dir, '..') });
      assert.deepEqual([run.code, run.stdout, run.stderr], [1, '', `trellis: ${message}\n`]);
      const doctor = await runCli(['doctor', 'demo'], { cwd: join(dir, '..') });
      assert.equal(doctor.code, 1);
      assert.match(doctor.stdout, new RegExp(`^Errors:\\n {2}error {3}${escape(message)} \\[config\\]\\n`, 'm'));
      assert.match(doctor.stdout, /, 1 error, /);
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
