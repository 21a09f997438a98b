import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { addArtifact, GeneratorError } from '../index';
import { listFiles, tempDir, treeHash } from '../test-support/tree';

let project: ReturnType<typeof tempDir>;

beforeEach(() => {
  project = tempDir();
  writeFileSync(join(project.path, 'config.yaml'), 'app: { title: Shop }\n');
});
afterEach(() => project.remove());

const read = (file: string) => readFileSync(join(project.path, file), 'utf8');

describe('add router', () => {
  it('renders routers/<name>.ts with a GET list endpoint at /<name>', async () => {
    const result = await addArtifact({ kind: 'router', name: 'order-items', dir: project.path });
    assert.deepEqual(result.files, [{ path: 'routers/order_items.ts', bytes: Buffer.byteLength(read('routers/order_items.ts')) }]);
    assert.equal(
      read('routers/order_items.ts'),
      `import { Get, router } from 'trellis';

/**
 * The order items endpoints, under /order-items. \`trellis run\` picks this file up: nothing else to edit.
 * To share state with other routers, take a service in the constructor and put \`@Injectable()\` above the class.
 */
export class OrderItemsRouter extends router('/order-items') {
  private readonly items: object[] = [];

  /** Lists the order items. */
  @Get()
  list(): object[] {
    return this.items;
  }
}
`,
    );
  });

  it('uses --path as the base path', async () => {
    const result = await addArtifact({ kind: 'router', name: 'orders', dir: project.path, path: '/api/v1/orders/' });
    assert.equal(result.names.basePath, '/api/v1/orders');
    assert.match(read('routers/orders.ts'), /^export class OrdersRouter extends router\('\/api\/v1\/orders'\) \{$/m);
  });

  it('finds the project through dir relative to cwd', async () => {
    mkdirSync(join(project.path, 'shop'));
    writeFileSync(join(project.path, 'shop', 'config.yaml'), '');
    await addArtifact({ kind: 'router', name: 'orders', dir: 'shop', cwd: project.path });
    assert.deepEqual(listFiles(join(project.path, 'shop')), ['config.yaml', 'routers/orders.ts']);
  });
});

describe('add service', () => {
  it('renders services/<name>_service.ts', async () => {
    await addArtifact({ kind: 'service', name: 'billing', dir: project.path });
    assert.equal(
      read('services/billing_service.ts'),
      `/**
 * State and logic shared by routers. \`trellis run\` builds one instance and passes it to every router whose
 * constructor takes a \`BillingService\` (put \`@Injectable()\` above such a router).
 */
export class BillingService {
  private readonly items: object[] = [];

  /** Every item, oldest first. */
  all(): object[] {
    return [...this.items];
  }

  /** Stores an item and returns it. */
  add<T extends object>(item: T): T {
    this.items.push(item);
    return item;
  }
}
`,
    );
  });
});

describe('add middleware', () => {
  it('renders middleware/<name>.ts', async () => {
    await addArtifact({ kind: 'middleware', name: 'audit-log', dir: project.path });
    assert.equal(
      read('middleware/audit_log.ts'),
      `import { Middleware, type CallNext, type Request, type Response } from 'trellis';

/**
 * Runs around requests. For every request, list \`audit_log\` under \`middleware:\` in config.yaml; for one
 * router or one handler, put \`@Use(AuditLog)\` above it.
 */
export class AuditLog extends Middleware {
  async dispatch(request: Request, callNext: CallNext): Promise<Response> {
    // Before the handler: read \`request\`, or return a response of your own to stop here.
    const response = await callNext(request);
    // After the handler: change the response (status, headers) before it is sent.
    return response;
  }
}
`,
    );
  });
});

describe('add refuses', () => {
  const refused = (reason: string, subject: string) => (error: unknown) =>
    error instanceof GeneratorError && error.reason === reason && error.subject === subject;

  it('to overwrite an existing file, leaving it unchanged', async () => {
    mkdirSync(join(project.path, 'routers'));
    writeFileSync(join(project.path, 'routers', 'orders.ts'), '// mine\n');
    const before = treeHash(project.path);
    await assert.rejects(
      addArtifact({ kind: 'router', name: 'orders', dir: project.path }),
      refused('file-exists', join(project.path, 'routers/orders.ts')),
    );
    assert.equal(treeHash(project.path), before);
    assert.equal(read('routers/orders.ts'), '// mine\n');
  });

  it('a folder without config.yaml', async () => {
    const empty = tempDir();
    try {
      const before = treeHash(empty.path);
      await assert.rejects(addArtifact({ kind: 'service', name: 'billing', dir: empty.path }), refused('not-a-project', empty.path));
      assert.equal(treeHash(empty.path), before);
    } finally {
      empty.remove();
    }
  });

  it('bad names and paths before writing anything', async () => {
    const before = treeHash(project.path);
    await assert.rejects(addArtifact({ kind: 'router', name: '../evil', dir: project.path }), refused('invalid-name', '../evil'));
    await assert.rejects(
      addArtifact({ kind: 'router', name: 'orders', dir: project.path, path: '/a/{id}' }),
      refused('invalid-path', '/a/{id}'),
    );
    assert.equal(treeHash(project.path), before);
  });

  it('nothing is written on a dry run', async () => {
    const before = treeHash(project.path);
    const result = await addArtifact({ kind: 'router', name: 'orders', dir: project.path, dryRun: true });
    assert.equal(result.files[0].path, 'routers/orders.ts');
    assert.ok(result.files[0].bytes > 300);
    assert.equal(treeHash(project.path), before);
  });
});
