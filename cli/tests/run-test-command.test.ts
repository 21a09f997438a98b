import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cleanup, copyFixture, runCli } from './run-support';

after(cleanup);

describe('trellis test', () => {
  it("runs a project's tests with the CLI's loader (no install) and exits 0 when they pass", async () => {
    const dir = copyFixture('healthy');
    mkdirSync(join(dir, 'tests', 'nested'));
    writeFileSync(join(dir, 'tests', 'nested', 'config.test.ts'), [
      "import assert from 'node:assert/strict';",
      "import { it } from 'node:test';",
      "import { Config } from 'trellis';",
      "it('reads a dotted path', () => assert.equal(new Config({ a: { b: 1 } }).get('a.b'), 1));",
    ].join('\n'));
    const result = await runCli(['test', dir]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /^# tests 3$/m);
    assert.match(result.stdout, /^# pass 3$/m);
    assert.match(result.stdout, /^# fail 0$/m);
  });

  it('exits non-zero when a test fails, after the runner reports it', async () => {
    const dir = copyFixture('healthy');
    writeFileSync(join(dir, 'tests', 'failing.test.ts'), [
      "import assert from 'node:assert/strict';",
      "import { it } from 'node:test';",
      "it('expects the impossible', () => assert.equal(1, 2));",
    ].join('\n'));
    const result = await runCli(['test', '.'], { cwd: dir });
    assert.equal(result.code, 1);
    assert.match(result.stdout, /^not ok \d+ - expects the impossible$/m);
    assert.match(result.stdout, /^# fail 1$/m);
    assert.equal(result.stderr, 'trellis: some tests failed\n');
  });

  it('says so in one line when there are no tests', async () => {
    const dir = copyFixture('healthy');
    rmSync(join(dir, 'tests'), { recursive: true });
    const result = await runCli(['test', dir]);
    assert.deepEqual([result.code, result.stdout], [1, '']);
    assert.equal(result.stderr, `trellis: no tests found: ${dir}/tests has no *.test.ts or *.test.js files\n`);
  });
});
