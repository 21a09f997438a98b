import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cleanup, copyFixture, freePort, http, runCli, Running } from './run-support';

const running: Running[] = [];
const start = (args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) => {
  const run = new Running(args, cwd, env);
  running.push(run);
  return run;
};
after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  cleanup();
});

/** The healthy fixture with the admin token read from ADMIN_TOKEN and the port from config.yaml. */
function project(port: number, dotenv?: string): string {
  const dir = copyFixture('healthy');
  writeFileSync(join(dir, 'config.yaml'), `server: { host: 127.0.0.1, port: ${port} }\nmiddleware: [timing]\nadmin:\n  token: \${ADMIN_TOKEN}\n`);
  if (dotenv !== undefined) writeFileSync(join(dir, '.env'), dotenv);
  return dir;
}

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe('trellis run and the environment', () => {
  it('listens on PORT over config.yaml, --port over PORT, and tells the app the port it serves on', async () => {
    const [fromConfig, fromEnvironment] = [await freePort(), await freePort()];
    const dir = project(fromConfig, 'ADMIN_TOKEN=t\n');
    const run = start(['.'], dir, { PORT: String(fromEnvironment), HOST: '127.0.0.1' });
    assert.equal(await run.url(), `http://127.0.0.1:${fromEnvironment}`);
    const settings = await http(`http://127.0.0.1:${fromEnvironment}/admin/settings`, bearer('t'));
    assert.equal(JSON.parse(settings.text).port, fromEnvironment);
    run.kill();

    const flagged = start(['.', '--port', '0'], dir, { PORT: String(fromEnvironment) });
    const url = await flagged.url();
    assert.notEqual(new URL(url).port, String(fromEnvironment));
    assert.notEqual(new URL(url).port, String(fromConfig));
    flagged.kill();
    assert.equal((await flagged.exited).code, 0);
  });

  it('fills ${ADMIN_TOKEN} from .env, the real environment winning over .env', async () => {
    const port = await freePort();
    const dir = project(port, '# local settings\nADMIN_TOKEN=from-dotenv\n');
    const run = start(['.'], dir);
    const url = await run.url();
    assert.equal((await http(`${url}/admin/settings`, bearer('from-dotenv'))).status, 200);
    assert.equal((await http(`${url}/admin/settings`, bearer('other'))).status, 401);
    run.kill();
    await run.exited;

    const overridden = start(['.'], dir, { ADMIN_TOKEN: 'from-environment' });
    const second = await overridden.url();
    assert.equal((await http(`${second}/admin/settings`, bearer('from-environment'))).status, 200);
    assert.equal((await http(`${second}/admin/settings`, bearer('from-dotenv'))).status, 401);
    overridden.kill();
  });

  it('refuses to start, in one line, when a variable config.yaml needs is not set, and doctor says the same', async () => {
    const dir = project(await freePort());
    const { ADMIN_TOKEN: _, ...env } = process.env;
    for (const command of ['run', 'doctor']) {
      const result = await runCli([command, '.'], { cwd: dir, env: { ...env, ADMIN_TOKEN: undefined } });
      assert.equal(result.code, 1, command);
      assert.match(result.stderr + result.stdout, /config\.yaml:4: ADMIN_TOKEN is not set/, command);
    }
    const run = await runCli(['run', '.'], { cwd: dir, env: { ADMIN_TOKEN: undefined } });
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
  });

  it('refuses a PORT that is not a port in one line', async () => {
    const dir = project(await freePort(), 'ADMIN_TOKEN=t\n');
    const result = await runCli(['run', '.'], { cwd: dir, env: { PORT: 'eighty' } });
    assert.equal(result.code, 1);
    assert.equal(result.stderr.trim(), 'trellis: PORT must be an integer from 0 to 65535, got "eighty" (from the environment or .env)');
  });
});
