import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { packageRoot } from '../../generators/paths';
import { tempDir } from '../../generators/test-support/tree';

// `trellis token` in real processes, as `TOKEN=$(npx trellis token --scope tasks:write)` runs it: the token alone on
// stdout, signed with the project's JWT_SECRET; every refusal one line on stderr and exit 1.

const CLI = join(packageRoot, 'bin', 'trellis.js');
const SECRET = 'the-secret-in-the-projects-dot-env-file-0123';
const work = tempDir();
const project = join(work.path, 'shop');

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function token(args: string[], env: NodeJS.ProcessEnv = {}, cwd = project): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'token', ...args], {
      cwd,
      env: { ...process.env, NODE_TEST_CONTEXT: undefined, NO_COLOR: '1', JWT_SECRET: undefined, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', reject).on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The claims of `jwt`, verified (HS256 only) with `secret`. */
async function claims(jwt: string, secret = SECRET) {
  const { payload } = await jwtVerify(jwt, new TextEncoder().encode(secret), { algorithms: ['HS256'] });
  return payload;
}

function refusal(outcome: Outcome, line: string): void {
  assert.equal(outcome.stderr, `trellis: ${line}\n`);
  assert.equal(outcome.stdout, '');
  assert.equal(outcome.code, 1);
}

before(() => {
  mkdirSync(join(project, 'routers'), { recursive: true });
  writeFileSync(join(project, 'config.yaml'), 'auth:\n  secret: ${JWT_SECRET}\n');
  writeFileSync(join(project, '.env'), `ADMIN_TOKEN=x\nJWT_SECRET=${SECRET}\n`);
  mkdirSync(join(work.path, 'bare'));
  mkdirSync(join(work.path, 'plain', 'routers'), { recursive: true });
  writeFileSync(join(work.path, 'plain', '.env'), 'ADMIN_TOKEN=x\nJWT_SECRET=\n');
});
after(() => work.remove());

describe('trellis token', { timeout: 120_000 }, () => {
  it('prints an HS256 token alone on stdout, signed with JWT_SECRET from .env, carrying the scopes, sub and exp', async () => {
    const outcome = await token(['--scope', 'tasks:write', '--scope', 'tasks:read', '--sub', 'alice']);
    assert.equal(outcome.code, 0, outcome.stderr);
    assert.equal(outcome.stderr, '');
    assert.match(outcome.stdout, /^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    const jwt = outcome.stdout.trim();
    assert.equal(decodeProtectedHeader(jwt).alg, 'HS256');
    const payload = await claims(jwt);
    assert.equal(payload.scope, 'tasks:write tasks:read');
    assert.equal(payload.sub, 'alice');
    assert.equal(payload.exp! - payload.iat!, 3600, 'an hour by default');
    assert.ok(Math.abs(payload.iat! - Date.now() / 1000) < 60);
    await assert.rejects(claims(jwt, `${SECRET}-not`), /signature verification failed/);
  });

  it('takes --expires as a number and a unit, and a project path; sub is dev without --sub', async () => {
    const outcome = await token(['shop', '--expires', '30m', '--scope', 'tasks:write'], {}, work.path);
    assert.equal(outcome.code, 0, outcome.stderr);
    const payload = await claims(outcome.stdout.trim());
    assert.equal(payload.exp! - payload.iat!, 1800);
    assert.equal(payload.sub, 'dev');
  });

  it('signs with JWT_SECRET from the environment when it is set: it wins over .env, as with trellis run', async () => {
    const other = 'a-secret-from-the-environment-of-the-shell-9876';
    const outcome = await token(['--scope', 'tasks:write'], { JWT_SECRET: other });
    assert.equal(outcome.code, 0, outcome.stderr);
    assert.equal((await claims(outcome.stdout.trim(), other)).scope, 'tasks:write');
  });

  it('fills a shell variable: TOKEN=$(npx trellis token --scope tasks:write)', async () => {
    const script = `TOKEN=$("${process.execPath}" "${CLI}" token --scope tasks:write) && printf '%s' "$TOKEN"`;
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile('sh', ['-c', script], { cwd: project, env: { ...process.env, NODE_TEST_CONTEXT: undefined, JWT_SECRET: undefined } }, (error, out) =>
        error ? reject(error) : resolve(out),
      );
    });
    assert.equal((await claims(stdout)).scope, 'tasks:write');
  });

  it('refuses a project without JWT_SECRET (missing or empty), in one line', async () => {
    refusal(
      await token(['plain'], {}, work.path),
      'no JWT_SECRET in plain/.env or the environment: a project made with `trellis create --auth jwt` has one; set it to sign tokens',
    );
  });

  it('refuses a folder that is not a project, and one that does not exist', async () => {
    refusal(await token(['bare'], {}, work.path), 'bare is not a trellis project (no config.yaml, no routers/)');
    refusal(await token(['nowhere'], {}, work.path), 'nowhere does not exist');
  });

  it('refuses a bad --expires before reading anything', async () => {
    for (const value of ['soon', '0h', '1y', '-1h', '1.5h']) {
      refusal(
        await token(['--expires', value]),
        `--expires must be a number and a unit (s, m, h, d or w), like 30m or 1h; got "${value}"`,
      );
    }
  });

  it('refuses a --scope that is not one scope', async () => {
    refusal(
      await token(['--scope', 'tasks:write tasks:read']),
      '--scope takes one scope without spaces (repeat --scope for more); got "tasks:write tasks:read"',
    );
  });
});
