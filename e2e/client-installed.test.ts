import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';
import { projectDependencies, projectDevDependencies } from '../generators/dependencies';
import { installInto, packedTarballs } from './support/packed-trellis';

// `trellis client` from the packed trellis-cli (compiled dist/cli, openapi-typescript loaded by the compiled
// require of an ES module package), in a project installed from the tarballs as a user's is: the client it writes
// is the one the checkout's CLI writes (cli/tests/typed-client, kept equal to a fresh render by its own test).

const ROOT = join(__dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'trellis-client-installed-'));
after(() => rmSync(work, { recursive: true, force: true }));

describe('trellis client from the installed packages', { timeout: 600_000 }, () => {
  it('writes the same client as the checkout', async () => {
    const { trellis, cli } = await packedTarballs();
    const project = join(work, 'tasks');
    cpSync(join(ROOT, 'cli', 'tests', 'fixtures', 'client-project'), project, { recursive: true });
    const pkg = { name: 'tasks', private: true, dependencies: projectDependencies(`file:${trellis}`), devDependencies: { ...projectDevDependencies(`file:${cli}`), 'openapi-typescript': '7.13.0' } };
    writeFileSync(join(project, 'package.json'), JSON.stringify(pkg, null, 2));
    await installInto(project);

    const bin = join(project, 'node_modules', 'trellis-cli', 'bin', 'trellis.js');
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, 'client', '--out', 'api'], { cwd: project, timeout: 120_000 });
    assert.equal(stderr, '');
    assert.match(stdout, /^ {2}WRITE api\/schema\.d\.ts \(\d+ bytes\)\n {2}WRITE api\/index\.ts \(\d+ bytes\)\n/);
    for (const file of ['schema.d.ts', 'index.ts']) {
      assert.equal(readFileSync(join(project, 'api', file), 'utf8'), readFileSync(join(ROOT, 'cli', 'tests', 'typed-client', file), 'utf8'), file);
    }
  });
});
