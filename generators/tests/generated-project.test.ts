import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createProject, EXAMPLE_NAMES, resolveExamples } from '../index';
import { packageRoot } from '../paths';
import { linkInstall } from '../test-support/linked-install';
import { tempDir } from '../test-support/tree';

// A project as `create` writes it must typecheck with its own tsconfig.json once its dependencies are in
// node_modules (`npm run typecheck`: plain `tsc --noEmit`), pass its own tests with `trellis test`, and get a
// clean bill of health from `trellis doctor`.

interface Outcome {
  status: number;
  output: string;
}

// Without NODE_TEST_CONTEXT the child runner reports as a top-level run (TAP on stdout), not to this runner.
// ADMIN_TOKEN is what `.env` would give `trellis run` (config.yaml reads `${ADMIN_TOKEN}`).
const env = { ...process.env, NODE_TEST_CONTEXT: undefined, ADMIN_TOKEN: 'test-admin-token' };
function node(args: string[], cwd: string): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd, env, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

describe('a generated project', () => {
  const cwd = tempDir();
  const outcomes = new Map<string, Promise<Outcome>>();

  before(async () => {
    const common = { cwd: cwd.path, title: 'Demo API', description: 'A demo.', port: 8000 };
    await createProject({ ...common, name: 'full', examples: resolveExamples(EXAMPLE_NAMES) });
    await createProject({ ...common, name: 'minimal', examples: resolveExamples([]) });
    // The checks run side by side: each is a few seconds of compiling.
    const trellis = join(packageRoot, 'bin', 'trellis.js');
    for (const name of ['full', 'minimal']) {
      const dir = join(cwd.path, name);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      linkInstall(dir, Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }));
      const typecheck = manifest.scripts.typecheck.replace(/^tsc /, '');
      outcomes.set(`tsc ${name}`, node([join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), ...typecheck.split(' ')], dir));
      outcomes.set(`test ${name}`, node([trellis, 'test', '.'], dir));
      outcomes.set(`doctor ${name}`, node([trellis, 'doctor', '.'], dir));
    }
  });
  after(() => cwd.remove());

  for (const name of ['full', 'minimal']) {
    it(`typechecks with its tsconfig.json and its node_modules (${name})`, async () => {
      const tsc = await outcomes.get(`tsc ${name}`)!;
      assert.equal(tsc.output, '');
      assert.equal(tsc.status, 0);
    });

    it(`passes its own tests with trellis test (${name})`, async () => {
      const run = await outcomes.get(`test ${name}`)!;
      assert.equal(run.status, 0, run.output);
      assert.match(run.output, /^# pass 6$/m);
      assert.match(run.output, /^# fail 0$/m);
    });

    it(`is healthy for trellis doctor (${name})`, async () => {
      const doctor = await outcomes.get(`doctor ${name}`)!;
      assert.equal(doctor.status, 0, doctor.output);
      const summary = name === 'full' ? '7 routers, 19 routes, 0 errors, 0 warnings' : '1 router, 5 routes, 0 errors, 0 warnings';
      assert.equal(doctor.output.trim().split('\n').at(-1), summary);
    });
  }
});
