import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Command } from 'commander';
import { registerCreate } from '../commands/create';
import { defaultTrellisRange } from '../../generators/dependencies';
import { messages } from '../messages';
import { fakeTerminal, scriptedPrompts } from '../../generators/test-support/fake-terminal';
import { listFiles, tempDir } from '../../generators/test-support/tree';

let cwd: ReturnType<typeof tempDir>;
beforeEach(() => (cwd = tempDir()));
afterEach(() => cwd.remove());

async function create(args: string[], terminal: ReturnType<typeof fakeTerminal>): Promise<void> {
  const program = new Command('trellis').exitOverride().configureOutput({ writeOut() {}, writeErr() {} });
  registerCreate(program, terminal);
  await program.parseAsync(['create', ...args, '--no-git', '--no-install', '--trellis-spec', defaultTrellisRange], { from: 'user' });
}

const files = (name: string) => listFiles(join(cwd.path, name));
const isDbProject = (name: string) => files(name).includes('db/schema.ts') && /^database:$/m.test(readFileSync(join(cwd.path, name, 'config.yaml'), 'utf8'));

describe('trellis create --db', () => {
  it('makes the project on a database with --db, asking nothing else with --yes', async () => {
    const terminal = fakeTerminal(cwd.path, scriptedPrompts([]));
    await create(['shop', '--db', '--yes', '--minimal'], terminal);
    assert.ok(isDbProject('shop'));
    assert.deepEqual(files('shop').filter((file) => /^(db|migrations)\//.test(file)), ['db/schema.ts', 'migrations/0001_create_tasks.ts']);
    assert.equal(terminal.lines.at(-2), 'Created shop/ with 20 files.');
  });

  it('asks the database question on a terminal, after the examples: yes makes the project on a database', async () => {
    const prompts = scriptedPrompts(['Shop', '', '8000', [], true, false]);
    await create(['shop'], fakeTerminal(cwd.path, prompts));
    assert.equal(prompts.asked.at(-2), `confirm: ${messages.create.ask.db}`);
    assert.equal(prompts.configs.at(-2).default, false, 'in memory unless asked for');
    assert.ok(isDbProject('shop'));
  });

  it('keeps the data in memory with --no-db or without the flag, and does not ask with either flag', async () => {
    const prompts = scriptedPrompts(['Shop', '', '8000', [], false]);
    await create(['plain', '--no-db'], fakeTerminal(cwd.path, prompts));
    assert.ok(!prompts.asked.includes(`confirm: ${messages.create.ask.db}`));
    await create(['quiet', '--yes'], fakeTerminal(cwd.path, scriptedPrompts([])));
    for (const name of ['plain', 'quiet']) {
      assert.ok(!isDbProject(name), name);
      assert.ok(!files(name).some((file) => file.startsWith('migrations/')), name);
    }
  });
});
