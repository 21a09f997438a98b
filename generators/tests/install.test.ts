import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createProject, installDependencies, npmFailure } from '../index';
import { createFixture } from '../test-support/create-fixture';
import { listFiles } from '../test-support/tree';

const { cwd, request } = createFixture();

describe("npmFailure: the one line that says why npm failed", () => {
  it("skips npm's metadata lines and its lowercase tag", () => {
    const cases: Array<[string, string | undefined]> = [
      ['npm warn tar TAR_BAD_ARCHIVE\nnpm error code TAR_BAD_ARCHIVE\nnpm error TAR_BAD_ARCHIVE: Unrecognized archive format\nnpm error A complete log of this run can be found in: /x.log\n', 'TAR_BAD_ARCHIVE: Unrecognized archive format'],
      ["npm error code ENOENT\nnpm error syscall open\nnpm error path /tmp/x.tgz\nnpm error errno -2\nnpm error enoent ENOENT: no such file or directory, open '/tmp/x.tgz'\nnpm error enoent This is related to npm not being able to find a file.\n", "ENOENT: no such file or directory, open '/tmp/x.tgz'"],
      ["npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/nope - Not found\nnpm error 404\n", '404 Not Found - GET https://registry.npmjs.org/nope - Not found'],
      ['npm error code ETARGET\nnpm error notarget No matching version found for trellis@9.9.9.\n', 'No matching version found for trellis@9.9.9.'],
      ['npm ERR! code ECONNREFUSED\nnpm ERR! request to http://127.0.0.1:9/x failed, reason: connect ECONNREFUSED\n', 'request to http://127.0.0.1:9/x failed, reason: connect ECONNREFUSED'],
      ['added 3 packages in 1s\n', undefined],
    ];
    for (const [output, line] of cases) assert.equal(npmFailure(output), line, output);
  });
});

describe('installDependencies', () => {
  it("reports npm's reason when a dependency cannot be installed, and leaves the project as it was", async () => {
    const tarball = join(cwd().path, 'trellis.tgz');
    writeFileSync(tarball, 'not a tarball');
    writeFileSync(join(cwd().path, 'trellis-cli-0.1.0-pre.1.tgz'), 'not a tarball either');
    const { root } = await createProject(request({ trellisSpec: tarball }));
    const before = new Map(listFiles(root).map((file) => [file, readFileSync(join(root, file), 'latin1')]));
    const outcome = await installDependencies(root);
    assert.deepEqual(outcome, { ok: false, reason: 'TAR_BAD_ARCHIVE: Unrecognized archive format' });
    for (const [file, content] of before) assert.equal(readFileSync(join(root, file), 'latin1'), content, file);
  });

  it('says so when npm is not there', async () => {
    const { root } = await createProject(request());
    assert.deepEqual(await installDependencies(root, 'npm-that-does-not-exist'), {
      ok: false,
      reason: process.platform === 'win32' ? 'npm exited with 1' : 'npm-that-does-not-exist was not found',
    });
  });
});
