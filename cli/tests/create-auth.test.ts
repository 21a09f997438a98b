import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Command } from 'commander';
import { CliError } from '../cli-error';
import { registerCreate } from '../commands/create';
import { defaultTrellisRange } from '../../generators/dependencies';
import { messages } from '../messages';
import { runCli } from '../../generators/test-support/cli-process';
import { fakeTerminal, scriptedPrompts } from '../../generators/test-support/fake-terminal';
import { listFiles, tempDir, treeHash } from '../../generators/test-support/tree';

let cwd: ReturnType<typeof tempDir>;
beforeEach(() => (cwd = tempDir()));
afterEach(() => cwd.remove());

async function create(args: string[], terminal: ReturnType<typeof fakeTerminal>): Promise<void> {
  const program = new Command('trellis').exitOverride().configureOutput({ writeOut() {}, writeErr() {} });
  registerCreate(program, terminal);
  await program.parseAsync(['create', ...args, '--no-git', '--no-install', '--trellis-spec', defaultTrellisRange], { from: 'user' });
}

const read = (name: string, file: string) => readFileSync(join(cwd.path, name, file), 'utf8');
const isAuthProject = (name: string) =>
  listFiles(join(cwd.path, name)).includes('middleware/require_writer.ts') && /^JWT_SECRET=[\w-]{43}$/m.test(read(name, '.env'));

describe('trellis create --auth', () => {
  it('protects the task writes with --auth jwt, asking nothing else with --yes', async () => {
    const terminal = fakeTerminal(cwd.path, scriptedPrompts([]));
    await create(['shop', '--auth', 'jwt', '--yes', '--minimal'], terminal);
    assert.ok(isAuthProject('shop'));
    assert.match(read('shop', 'config.yaml'), /^auth:\n(?: {2}#.*\n)* {2}secret: \$\{JWT_SECRET\}\n/m);
    assert.equal(terminal.lines.at(-2), 'Created shop/ with 18 files.');
  });

  it('asks on a terminal, after the database question (and before git: see create-wizard.test.ts): yes protects the writes', async () => {
    const prompts = scriptedPrompts(['Shop', '', '8000', [], false, true]);
    await create(['shop'], fakeTerminal(cwd.path, prompts));
    assert.deepEqual(prompts.asked.slice(-2), [`confirm: ${messages.create.ask.db}`, `confirm: ${messages.create.ask.auth}`]);
    assert.equal(prompts.configs.at(-1).default, false, 'open unless asked for');
    assert.ok(isAuthProject('shop'));
  });

  it('leaves the writes open with --auth none, no answer or --yes, and does not ask with either flag', async () => {
    const asked = scriptedPrompts(['Shop', '', '8000', [], false, false]);
    await create(['asked'], fakeTerminal(cwd.path, asked));
    const flagged = scriptedPrompts(['Shop', '', '8000', [], false]);
    await create(['flagged', '--auth', 'none'], fakeTerminal(cwd.path, flagged));
    assert.ok(!flagged.asked.includes(`confirm: ${messages.create.ask.auth}`));
    const jwt = scriptedPrompts(['Shop', '', '8000', [], false]);
    await create(['jwt', '--auth', 'jwt'], fakeTerminal(cwd.path, jwt));
    assert.ok(!jwt.asked.includes(`confirm: ${messages.create.ask.auth}`));
    assert.ok(isAuthProject('jwt'));
    await create(['quiet', '--yes'], fakeTerminal(cwd.path, scriptedPrompts([])));
    for (const name of ['asked', 'flagged', 'quiet']) {
      assert.ok(!listFiles(join(cwd.path, name)).includes('middleware/require_writer.ts'), name);
      assert.ok(!/JWT_SECRET/.test(read(name, '.env') + read(name, 'config.yaml')), name);
    }
  });

  it('refuses another --auth value before asking or writing anything, naming the choices', async () => {
    const prompts = scriptedPrompts([]);
    const before = treeHash(cwd.path);
    await assert.rejects(create(['shop', '--auth', 'oauth'], fakeTerminal(cwd.path, prompts)), (error: CliError) => {
      return error.message === 'Unknown --auth "oauth"; the choices are: none, jwt' && error.exitCode === 1;
    });
    assert.deepEqual(prompts.asked, []);
    assert.equal(treeHash(cwd.path), before);
  });

  it('says so in one line on stderr and exits 1, from the command line', async () => {
    const { code, stdout, stderr } = await runCli(['create', 'shop', '--auth', 'basic', '--yes', '--no-install', '--no-git'], cwd.path);
    assert.equal(stderr, 'trellis: Unknown --auth "basic"; the choices are: none, jwt\n');
    assert.equal(stdout, '');
    assert.equal(code, 1);
    assert.deepEqual(readdirSync(cwd.path), []);
  });
});
