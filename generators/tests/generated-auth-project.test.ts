import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createProject, EXAMPLE_NAMES, resolveExamples } from '../index';
import { packageRoot } from '../paths';
import { linkInstall } from '../test-support/linked-install';
import { tempDir } from '../test-support/tree';

// A `create --auth jwt` project, in memory (every example) and on a database (tasks alone), typechecks with its
// own tsconfig.json, passes its own tests with `trellis test` (tokens minted with signToken) and is healthy for
// `trellis doctor`; `trellis run` refuses to start, in one line, without a usable JWT_SECRET.

interface Outcome {
  status: number;
  output: string;
}

const env = { ...process.env, NODE_TEST_CONTEXT: undefined, ADMIN_TOKEN: 'test-admin-token', DATABASE_URL: '', JWT_SECRET: undefined };
function node(args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd, env: { ...env, ...extra }, timeout: 600_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ status: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

const trellis = join(packageRoot, 'bin', 'trellis.js');

// linkInstall gives the project trellis's TypeScript sources, which tsc checks under the project's node16 settings:
// their imports of jose (an ES module) are TS1479 there. An installed trellis has declaration files instead, which
// the project's skipLibCheck skips (cli/tests/create-auth-e2e.test.ts runs npm run typecheck on a real install).
// Only those lines, about trellis's own files outside the project, are left out; any other error fails.
function linkArtefact(line: string): boolean {
  const file = line.split('(')[0];
  return (/\bframework\/auth\/[\w-]+\.ts$/.test(file) && line.includes('error TS1479')) || line.startsWith('  To convert this file to an ECMAScript module');
}
const PROJECTS = { auth: { db: false, examples: EXAMPLE_NAMES }, 'auth-db': { db: true, examples: [] } } as const;

describe('a generated --auth jwt project', { timeout: 900_000 }, () => {
  const cwd = tempDir();
  const outcomes = new Map<string, Promise<Outcome>>();

  before(async () => {
    for (const [name, { db, examples }] of Object.entries(PROJECTS)) {
      const common = { cwd: cwd.path, title: 'Demo API', description: 'A demo.', port: 8000 };
      await createProject({ ...common, name, examples: resolveExamples(examples), db, auth: 'jwt' });
      const dir = join(cwd.path, name);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      linkInstall(dir, Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }));
      outcomes.set(`tsc ${name}`, node([join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit'], dir));
      outcomes.set(`test ${name}`, node([trellis, 'test', '.'], dir));
      outcomes.set(`doctor ${name}`, node([trellis, 'doctor', '.'], dir));
    }
  });
  after(() => cwd.remove());

  for (const name of Object.keys(PROJECTS)) {
    it(`typechecks with its tsconfig.json and its node_modules (${name})`, async () => {
      const tsc = await outcomes.get(`tsc ${name}`)!;
      const errors = tsc.output.split('\n').filter((line) => line.trim() && !linkArtefact(line));
      assert.deepEqual(errors, []);
    });

    it(`passes its own tests with trellis test, the 401 and the 403 among them (${name})`, async () => {
      const run = await outcomes.get(`test ${name}`)!;
      assert.equal(run.status, 0, run.output);
      assert.match(run.output, name === 'auth' ? /^# pass 8$/m : /^# pass 11$/m); // and the schema test on a database
      assert.match(run.output, /^# fail 0$/m);
      assert.match(run.output, /^ {4}ok \d+ - answers 401 to a write without a token/m);
      assert.match(run.output, /^ {4}ok \d+ - answers 403 to a write whose token lacks tasks:write$/m);
    });
  }

  it('is healthy for trellis doctor', async () => {
    const doctor = await outcomes.get('doctor auth')!;
    assert.equal(doctor.status, 0, doctor.output);
    assert.equal(doctor.output.trim().split('\n').at(-1), '7 routers, 19 routes, 0 errors, 0 warnings');
  });

  it('does not start without JWT_SECRET, or with an empty one: one line naming config.yaml', async () => {
    const dir = join(cwd.path, 'auth');
    const dotenv = readFileSync(join(dir, '.env'), 'utf8');
    writeFileSync(join(dir, '.env'), dotenv.replace(/^JWT_SECRET=.*\n/m, ''));
    const unset = await node([trellis, 'run', '.', '--port', '0'], dir);
    assert.equal(unset.status, 1, unset.output);
    assert.match(unset.output, /config\.yaml:\d+.*JWT_SECRET is not set/);
    writeFileSync(join(dir, '.env'), dotenv);
    const empty = await node([trellis, 'run', '.', '--port', '0'], dir, { JWT_SECRET: '' });
    assert.equal(empty.status, 1, empty.output);
    assert.match(empty.output, /config\.yaml.*auth\.secret/);
  });
});
