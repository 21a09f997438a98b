import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Command } from 'commander';
import { CliError } from '../cli-error';
import { registerAdd } from '../commands/add';
import { messages } from '../messages';
import { runCli } from '../../generators/test-support/cli-process';
import { fakeTerminal, scriptedPrompts } from '../../generators/test-support/fake-terminal';
import { tempDir, treeHash } from '../../generators/test-support/tree';

let cwd: ReturnType<typeof tempDir>;
let project: string;
beforeEach(() => {
  cwd = tempDir();
  project = join(cwd.path, 'shop');
  mkdirSync(project);
  writeFileSync(join(project, 'config.yaml'), 'app: { title: Shop }\n');
});
afterEach(() => cwd.remove());

const size = (file: string) => statSync(join(project, file)).size;

describe('trellis add', () => {
  it('adds a router in the current project and says where it is served', async () => {
    const { code, stdout, stderr } = await runCli(['add', 'router', 'orders'], project);
    assert.equal(stderr, '');
    assert.equal(code, 0);
    assert.equal(
      stdout,
      `  CREATE routers/orders.ts (${size('routers/orders.ts')} bytes)\n` +
        'OrdersRouter serves GET /orders from the next start of `trellis run` (at once with --reload).\n',
    );
  });

  it('adds a service and a middleware in the project named by --dir', async () => {
    const service = await runCli(['add', 'service', 'billing', '--dir', 'shop'], cwd.path);
    assert.equal(service.code, 0);
    assert.equal(
      service.stdout,
      `  CREATE shop/services/billing_service.ts (${size('services/billing_service.ts')} bytes)\n` +
        'Routers get BillingService by taking it as a constructor parameter (put @Injectable() above the router).\n',
    );
    const middleware = await runCli(['add', 'middleware', 'audit', '--dir', 'shop'], cwd.path);
    assert.equal(middleware.code, 0);
    assert.equal(
      middleware.stdout,
      `  CREATE shop/middleware/audit.ts (${size('middleware/audit.ts')} bytes)\n` +
        'Apply Audit to every request by adding audit to `middleware:` in config.yaml, or to one router or handler with @Use(Audit) above it (import it from ../middleware/audit).\n',
    );
  });

  it('takes --path for a router', async () => {
    const { code } = await runCli(['add', 'router', 'orders', '--path', '/api/orders'], project);
    assert.equal(code, 0);
    assert.match(readFileSync(join(project, 'routers', 'orders.ts'), 'utf8'), /extends router\('\/api\/orders'\)/);
  });
});

describe('trellis add: bad input is one line on stderr, exit 1, nothing written', () => {
  const cases: Array<[string[], string]> = [
    [['add', 'router', 'existing'], 'routers/existing.ts already exists; nothing was written'],
    [['add', 'router', '../x'], 'Invalid name "../x": use letters, digits, "-" and "_", starting with a letter'],
    [['add', 'router', 'orders', '--path', 'orders'], 'Invalid --path "orders": give a base path like /api/orders (letters, digits, - _ . ~; no {params})'],
    [['add', 'router'], 'Missing the router name: trellis add router <name>'],
    [['add', 'widget', 'x'], 'Cannot add "widget": trellis add router|service|middleware|resource <name>'],
    [['add'], 'Say what to add: trellis add router|service|middleware|resource <name>'],
    [['add', 'service', 'billing', '--path', '/x'], "unknown option '--path'"],
  ];
  for (const [args, message] of cases) {
    it(JSON.stringify(args.slice(1)), async () => {
      mkdirSync(join(project, 'routers'));
      writeFileSync(join(project, 'routers', 'existing.ts'), '// mine\n');
      const before = treeHash(cwd.path);
      const { code, stdout, stderr } = await runCli(args, project);
      assert.equal(stderr, `trellis: ${message}\n`);
      assert.equal(stdout, '');
      assert.equal(code, 1);
      assert.equal(treeHash(cwd.path), before);
    });
  }

  it('outside a project', async () => {
    const before = treeHash(cwd.path);
    const { code, stderr } = await runCli(['add', 'router', 'orders'], cwd.path);
    assert.equal(stderr, `trellis: ${cwd.path} is not a trellis project (no config.yaml); point --dir at one\n`);
    assert.equal(code, 1);
    assert.equal(treeHash(cwd.path), before);
  });
});

describe('trellis add on a terminal', () => {
  async function add(args: string[], terminal: ReturnType<typeof fakeTerminal>): Promise<void> {
    const program = new Command('trellis').exitOverride().configureOutput({ writeOut() {}, writeErr() {} });
    registerAdd(program, terminal);
    await program.parseAsync(['add', ...args], { from: 'user' });
  }

  it('asks for the name and the base path, offering /<name>', async () => {
    const prompts = scriptedPrompts([
      (config: any) => {
        assert.match(String(config.validate('../x')), /^Invalid name "\.\.\/x"/);
        assert.equal(config.validate('order-items'), true);
        return 'order-items';
      },
      (config: any) => {
        assert.equal(config.default, '/order-items');
        assert.match(String(config.validate('/a/{id}')), /^Invalid --path/);
        return '/api/items';
      },
    ]);
    const terminal = fakeTerminal(project, prompts);
    await add(['router'], terminal);
    assert.deepEqual(prompts.asked, [`input: ${messages.add.ask.name('router')}`, `input: ${messages.add.ask.path}`]);
    assert.match(readFileSync(join(project, 'routers', 'order_items.ts'), 'utf8'), /class OrderItemsRouter extends router\('\/api\/items'\)/);
  });

  it('asks nothing for what the flags gave, or with --yes', async () => {
    const prompts = scriptedPrompts([]);
    await add(['router', 'orders', '--path', '/orders'], fakeTerminal(project, prompts));
    await add(['service', 'billing'], fakeTerminal(project, prompts));
    await add(['router', 'items', '--yes'], fakeTerminal(project, prompts));
    assert.deepEqual(prompts.asked, []);
    assert.match(readFileSync(join(project, 'routers', 'items.ts'), 'utf8'), /router\('\/items'\)/);
  });

  it('refuses an existing file after asking, leaving it unchanged', async () => {
    mkdirSync(join(project, 'services'));
    writeFileSync(join(project, 'services', 'billing_service.ts'), '// mine\n');
    const before = treeHash(project);
    await assert.rejects(add(['service'], fakeTerminal(project, scriptedPrompts(['billing']))), (error: CliError) => {
      return error.message === 'services/billing_service.ts already exists; nothing was written' && error.exitCode === 1;
    });
    assert.equal(treeHash(project), before);
  });
});
