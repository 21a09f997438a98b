import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { Command } from 'commander';
import { CliError } from '../cli-error';
import { registerCreate } from '../commands/create';
import { runCreate } from '../commands/create-action';
import { defaultTrellisRange } from '../../generators/dependencies';
import { messages } from '../messages';
import { askCreate } from '../prompts/create-wizard';
import { exitPromptError, fakeTerminal, scriptedPrompts } from '../../generators/test-support/fake-terminal';
import { listFiles, tempDir, treeHash } from '../../generators/test-support/tree';

let cwd: ReturnType<typeof tempDir>;
beforeEach(() => (cwd = tempDir()));
afterEach(() => cwd.remove());

async function create(args: string[], terminal: ReturnType<typeof fakeTerminal>): Promise<void> {
  const program = new Command('trellis').exitOverride().configureOutput({ writeOut() {}, writeErr() {} });
  registerCreate(program, terminal);
  // The spec a registry install writes (from this checkout, create would pack it: see e2e/distribution.test.ts).
  await program.parseAsync(['create', ...args, '--trellis-spec', defaultTrellisRange], { from: 'user' });
}

describe('the create wizard', () => {
  it('asks for everything flags left out, in order, offering the defaults', async () => {
    const prompts = scriptedPrompts(['Shop API', 'Sells things.', '3000', ['upload'], true, true, false]);
    const choices = await askCreate('shop', {}, prompts);
    assert.deepEqual(prompts.asked, [
      `input: ${messages.create.ask.title}`,
      `input: ${messages.create.ask.description}`,
      `input: ${messages.create.ask.port}`,
      `checkbox: ${messages.create.ask.examples}`,
      'confirm: Store data in a database? (embedded PGlite in development, PostgreSQL in production)',
      'confirm: Protect task writes with JWT bearer tokens? (scope tasks:write, signed with JWT_SECRET from .env)',
      `confirm: ${messages.create.ask.git}`,
    ]);
    assert.deepEqual(prompts.configs.map((c) => c.default), ['Shop API', 'An HTTP API built with trellis.', '8000', undefined, false, false, true]);
    assert.deepEqual(
      prompts.configs[3].choices.map((c: { value: string; checked: boolean }) => [c.value, c.checked]),
      [['products', true], ['users', true], ['upload', true], ['pages', true], ['admin', true]],
    );
    assert.deepEqual(choices, { title: 'Shop API', description: 'Sells things.', port: 3000, examples: ['upload'], db: true, auth: 'jwt', git: false });
  });

  it('asks nothing that a flag gave', async () => {
    const prompts = scriptedPrompts(['Sells things.', ['users']]);
    const choices = await askCreate('shop', { title: 'Shop', port: 8080, db: false, auth: 'none', git: true }, prompts);
    assert.deepEqual(prompts.asked, [`input: ${messages.create.ask.description}`, `checkbox: ${messages.create.ask.examples}`]);
    assert.deepEqual(choices, { title: 'Shop', description: 'Sells things.', port: 8080, examples: ['users'], db: false, auth: 'none', git: true });
  });

  it('validates the title and the port while asking', async () => {
    const prompts = scriptedPrompts([
      (config: any) => {
        assert.equal(config.validate('  '), messages.create.titleRequired);
        assert.equal(config.validate('Shop'), true);
        return 'Shop';
      },
      (config: any) => {
        assert.equal(config.validate('0'), 'The port must be an integer from 1 to 65535, got "0"');
        assert.equal(config.validate('http'), 'The port must be an integer from 1 to 65535, got "http"');
        assert.equal(config.validate('8080'), true);
        return '8080';
      },
    ]);
    const choices = await askCreate('shop', { description: '', examples: [], db: false, auth: 'none', git: false }, prompts);
    assert.equal(choices.port, 8080);
  });
});

describe('trellis create on a terminal', () => {
  it('creates the project from the answers', async () => {
    const prompts = scriptedPrompts(['Shop API', 'Sells things.', ['upload'], false, false]);
    const terminal = fakeTerminal(cwd.path, prompts);
    await create(['shop', '--port', '3000', '--no-git', '--no-install'], terminal);
    assert.equal(prompts.asked.length, 5);
    const config = parseYaml(readFileSync(join(cwd.path, 'shop', 'config.yaml'), 'utf8'));
    assert.deepEqual(config.app, { title: 'Shop API', version: '0.1.0', description: 'Sells things.' });
    assert.equal(config.server.port, 3000);
    assert.deepEqual(listFiles(join(cwd.path, 'shop', 'routers')), ['task_feed.ts', 'tasks.ts', 'upload.ts']);
    assert.equal(terminal.lines.at(-2), 'Created shop/ with 18 files.');
    assert.deepEqual(terminal.spinners, ['Creating shop/']);
    assert.deepEqual(terminal.warnings, []);
  });

  it('includes and names the examples a chosen one needs', async () => {
    const terminal = fakeTerminal(cwd.path, scriptedPrompts(['Shop', '', '8000', ['admin'], false, false]));
    await create(['shop', '--no-git', '--no-install'], terminal);
    assert.deepEqual(terminal.lines.slice(0, 2), ['Including products: admin needs it.', 'Including users: admin needs it.']);
    assert.deepEqual(listFiles(join(cwd.path, 'shop', 'routers')), ['admin.ts', 'posts.ts', 'products.ts', 'task_feed.ts', 'tasks.ts', 'users.ts']);
  });

  it('asks nothing with --yes', async () => {
    const terminal = fakeTerminal(cwd.path, scriptedPrompts([]));
    await create(['shop', '--yes', '--no-git', '--no-install'], terminal);
    assert.match(readFileSync(join(cwd.path, 'shop', 'config.yaml'), 'utf8'), /^app:\n  title: "Shop API"\n/m);
  });

  it('refuses a bad name before asking anything', async () => {
    const prompts = scriptedPrompts([]);
    const before = treeHash(cwd.path);
    await assert.rejects(create(['../x'], fakeTerminal(cwd.path, prompts)), (error: CliError) => {
      return error.message === 'Invalid project name "../x": give a folder name, not a path' && error.exitCode === 1;
    });
    assert.deepEqual(prompts.asked, []);
    assert.equal(treeHash(cwd.path), before);
  });

  it('writes nothing when the user leaves the wizard (exit 130)', async () => {
    const prompts = scriptedPrompts([
      'Shop',
      () => {
        throw exitPromptError();
      },
    ]);
    const before = treeHash(cwd.path);
    await assert.rejects(create(['shop', '--no-install'], fakeTerminal(cwd.path, prompts)), (error: CliError) => {
      return error.message === messages.create.cancelled && error.exitCode === 130;
    });
    assert.equal(treeHash(cwd.path), before);
  });
});

describe('trellis create: the install step, in process', () => {
  const run = (installer: (root: string) => Promise<{ ok: true } | { ok: false; reason: string }>) => {
    const terminal = fakeTerminal(cwd.path, scriptedPrompts([]));
    const roots: string[] = [];
    const done = runCreate('shop', { yes: true, git: false, trellisSpec: defaultTrellisRange }, terminal, async (root) => {
      roots.push(root);
      return installer(root);
    });
    return { terminal, roots, done };
  };

  it('runs after the files are written, behind a spinner, then says what is next', async () => {
    const { terminal, roots, done } = run(async (root) => {
      assert.ok(listFiles(root).includes('package.json'), 'the project is written first');
      return { ok: true };
    });
    await done;
    assert.deepEqual(roots, [join(cwd.path, 'shop')]);
    assert.deepEqual(terminal.spinners, ['Creating shop/', 'Installing dependencies in shop/ (npm install)...']);
    assert.match(terminal.lines.at(-2)!, /^Installed dependencies in \d+\.\d s\.$/);
    assert.equal(terminal.lines.at(-1), 'Next: `cd shop && npm run dev`, then open http://localhost:8000/docs/ (tests: `npm test`).');
  });

  it('turns a failure into one CliError line with the retry command and keeps the project', async () => {
    const { terminal, done } = run(async () => ({ ok: false, reason: '404 Not Found - GET https://registry.npmjs.org/trellis' }));
    await assert.rejects(done, (error: CliError) => {
      assert.equal(
        error.message,
        'npm install failed: 404 Not Found - GET https://registry.npmjs.org/trellis. The project is in shop/: fix the cause, then run `cd shop && npm install`',
      );
      return error.exitCode === 1;
    });
    assert.equal(terminal.lines.at(-1), 'Created shop/ with 26 files.');
    assert.equal(listFiles(join(cwd.path, 'shop')).length, 26);
  });
});
