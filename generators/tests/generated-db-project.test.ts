import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { addResource, createProject, EXAMPLE_NAMES, resolveExamples } from '../index';
import { packageRoot } from '../paths';
import { linkInstall } from '../test-support/linked-install';
import { tempDir } from '../test-support/tree';

// A `create --db` project with a resource added (`add resource notes`) typechecks with its own tsconfig.json,
// passes its own tests with `trellis test` (each on a fresh migrated database, db/schema.ts compared with the
// migrated tables) and is healthy for `trellis doctor` but for the migrations its database lacks.

interface Outcome {
  status: number;
  output: string;
}

const env = { ...process.env, NODE_TEST_CONTEXT: undefined, ADMIN_TOKEN: 'test-admin-token', DATABASE_URL: '' };
function node(args: string[], cwd: string): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd, env, timeout: 900_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ status: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

describe('a generated --db project with a resource', { timeout: 1_200_000 }, () => {
  const cwd = tempDir();
  const dir = join(cwd.path, 'shop');
  const outcomes = new Map<string, Promise<Outcome>>();

  before(async () => {
    await createProject({ cwd: cwd.path, name: 'shop', title: 'Shop', description: 'A shop.', port: 8000, examples: resolveExamples(EXAMPLE_NAMES), db: true });
    await addResource({ name: 'notes', dir });
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    linkInstall(dir, Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }));
    const trellis = join(packageRoot, 'bin', 'trellis.js');
    outcomes.set('tsc', node([join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit'], dir));
    outcomes.set('test', node([trellis, 'test', '.'], dir));
    outcomes.set('doctor', node([trellis, 'doctor', '.'], dir));
  });
  after(() => cwd.remove());

  it('typechecks with its tsconfig.json and its node_modules', async () => {
    const tsc = await outcomes.get('tsc')!;
    assert.equal(tsc.output, '');
    assert.equal(tsc.status, 0);
  });

  it('passes its own tests: tasks, the schema check and the resource\'s', async () => {
    const run = await outcomes.get('test')!;
    assert.equal(run.status, 0, run.output);
    assert.match(run.output, /^# pass 13$/m);
    assert.match(run.output, /^# fail 0$/m);
    assert.match(run.output, /^ok \d+ - db\/schema\.ts declares the tables and columns the migrations make$/m);
  });

  it('is healthy for trellis doctor, which lists the migrations the development database lacks', async () => {
    const doctor = await outcomes.get('doctor')!;
    assert.equal(doctor.status, 0, doctor.output);
    assert.equal(doctor.output.trim().split('\n').at(-1), '8 routers, 24 routes, 0 errors, 4 warnings');
    const pending = [...doctor.output.matchAll(/migration (\w+) is not applied/g)].map((match) => match[1]);
    assert.deepEqual(pending, ['0001_create_tasks', '0002_create_products', '0003_create_users', '0004_create_notes']);
  });
});
