import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { packedTarballs } from '../../e2e/support/packed-trellis';
import { mustRun, startServing, type Serving } from '../../e2e/support/project-process';

// A user's path with tokens, in real processes and one npm install: `trellis create --auth jwt` from the packed
// tarballs, the project's own `npm test`, then `npm run dev` answering the README's curl: a write refused without
// a token (401) and with a token lacking the scope (403), done with `npx trellis token --scope tasks:write` (201).

const CLI = join(__dirname, '..', '..', 'bin', 'trellis.js');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const work = mkdtempSync(join(tmpdir(), 'trellis-create-auth-'));
const project = join(work, 'shop');
const servers: Serving[] = [];
// The project's .env gives JWT_SECRET, whatever the environment running the tests says.
const env = { JWT_SECRET: undefined, ADMIN_TOKEN: undefined };
const SLOW = 300_000;

before(async () => {
  const { trellis } = await packedTarballs();
  await mustRun([process.execPath, CLI, 'create', 'shop', '--yes', '--minimal', '--auth', 'jwt', '--trellis-spec', trellis], { cwd: work, timeoutMs: 600_000 });
});
after(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
  rmSync(work, { recursive: true, force: true });
});

async function token(...scopes: string[]): Promise<string> {
  const output = await mustRun(['npx', '--no-install', 'trellis', 'token', ...scopes.flatMap((scope) => ['--scope', scope])], { cwd: project, env });
  assert.match(output, /^[\w-]+\.[\w-]+\.[\w-]+\n$/, 'the token alone');
  return output.trim();
}

describe('an --auth jwt project, end to end', { timeout: 1_800_000 }, () => {
  it('passes its own npm test (the 401, the 403 and the 201 among them) and npm run typecheck', async () => {
    const output = await mustRun([NPM, 'test'], { cwd: project, env, timeoutMs: SLOW });
    assert.match(output, /^# pass 8$/m);
    assert.match(output, /^# fail 0$/m);
    await mustRun([NPM, 'run', 'typecheck'], { cwd: project, timeoutMs: SLOW });
  });

  it('answers the README\'s curl: 401 without a token, 403 without the scope, 201 with a token from trellis token', async () => {
    const server = await startServing([NPM, 'run', 'dev', '--', '--host', '127.0.0.1', '--port', '0'], { cwd: project, group: true, timeoutMs: SLOW, env });
    servers.push(server);
    const post = (headers: Record<string, string> = {}) =>
      fetch(`${server.url}/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ title: 'Try trellis' }) });
    const anonymous = await post();
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer realm="tasks"');
    const reader = await post({ authorization: `Bearer ${await token('tasks:read')}` });
    assert.equal(reader.status, 403);
    assert.match(reader.headers.get('www-authenticate') ?? '', /error="insufficient_scope".*scope="tasks:write"$/);
    const writer = await post({ authorization: `Bearer ${await token('tasks:write')}` });
    assert.equal(writer.status, 201);
    assert.deepEqual(await writer.json(), { id: 3, title: 'Try trellis', description: '', completed: false });
    assert.equal((await fetch(`${server.url}/tasks/3`)).status, 200, 'reads need no token');
    await server.stop('SIGTERM');
  });
});
