import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactNames, checkBasePath, checkPort, checkProjectName, GeneratorError, resolveExamples } from '../index';
import { pascalCase, snakeCase, titleCase, words } from '../names';

const refusal = (reason: string, subject?: string) => (error: unknown) =>
  error instanceof GeneratorError && error.reason === reason && (subject === undefined || error.subject === subject);

describe('case conversion', () => {
  it('splits kebab, snake, camel and Pascal names into the same words', () => {
    for (const name of ['order-items', 'order_items', 'orderItems', 'OrderItems', 'ORDER_ITEMS']) {
      assert.deepEqual(words(name), ['order', 'items'], name);
    }
    assert.deepEqual(words('HTTPServer'), ['http', 'server']);
    assert.equal(pascalCase('order-items'), 'OrderItems');
    assert.equal(snakeCase('orderItems'), 'order_items');
    assert.equal(titleCase('my-shop'), 'My Shop');
  });
});

describe('project names', () => {
  it('accepts folder names npm accepts', () => {
    for (const name of ['demo', 'my-shop', 'shop2', 'a.b']) assert.doesNotThrow(() => checkProjectName(name), name);
  });

  it('refuses paths, empty names and names npm refuses, with the reason', () => {
    const cases: Array<[string, string]> = [
      ['../x', 'give a folder name, not a path'],
      ['/abs', 'give a folder name, not a path'],
      ['a/b', 'give a folder name, not a path'],
      ['a\\b', 'give a folder name, not a path'],
      ['..', 'give a folder name, not a path'],
      ['', 'the name is empty'],
      ['  ', 'the name is empty'],
      ['Demo', 'name can no longer contain capital letters'],
      ['.hidden', 'name cannot start with a period'],
      ['_x', 'name cannot start with an underscore'],
      ['http', 'http is a core module name'],
      ['has space', 'name can only contain URL-friendly characters'],
      ['node_modules', 'node_modules is not a valid package name'],
    ];
    for (const [name, detail] of cases) {
      assert.throws(
        () => checkProjectName(name),
        (error: GeneratorError) => error.reason === 'invalid-project-name' && error.subject === name && error.detail === detail,
        name,
      );
    }
  });
});

describe('artifact names', () => {
  it('derives file, class and base path names per kind', () => {
    assert.deepEqual(artifactNames('router', 'order-items'), {
      stem: 'order_items',
      className: 'OrderItemsRouter',
      label: 'order items',
      basePath: '/order-items',
    });
    assert.deepEqual(artifactNames('router', 'orders'), {
      stem: 'orders',
      className: 'OrdersRouter',
      label: 'orders',
      basePath: '/orders',
    });
    assert.equal(artifactNames('service', 'billing').stem, 'billing_service');
    assert.equal(artifactNames('service', 'billing').className, 'BillingService');
    assert.equal(artifactNames('middleware', 'require-token').stem, 'require_token');
    assert.equal(artifactNames('middleware', 'require-token').className, 'RequireToken');
  });

  it('does not double a trailing kind word', () => {
    assert.equal(artifactNames('service', 'task_service').stem, 'task_service');
    assert.equal(artifactNames('service', 'TaskService').className, 'TaskService');
    assert.equal(artifactNames('router', 'ordersRouter').className, 'OrdersRouter');
    assert.equal(artifactNames('router', 'ordersRouter').basePath, '/orders');
  });

  it('refuses names that are not identifiers-to-be', () => {
    for (const name of ['', 'a/b', '../x', '1st', 'with space', 'dot.ted', '-x']) {
      assert.throws(() => artifactNames('router', name), refusal('invalid-name', name), name);
    }
    assert.throws(() => artifactNames('router', 'router'), refusal('invalid-name', 'router'));
    assert.throws(() => artifactNames('service', 'Service'), refusal('invalid-name', 'Service'));
    assert.throws(() => artifactNames('middleware', 'promise'), refusal('invalid-name', 'promise'));
  });
});

describe('base paths and ports', () => {
  it('takes literal base paths and drops a trailing slash', () => {
    assert.equal(checkBasePath('/api/orders'), '/api/orders');
    assert.equal(checkBasePath('/api/orders/'), '/api/orders');
    assert.equal(checkBasePath('/v1.2/x_y~z'), '/v1.2/x_y~z');
  });

  it('refuses relative paths, parameters, dot segments and odd characters', () => {
    for (const path of ['orders', '', '/', '/api/{id}', '/a/../b', '/a/./b', '/a b', '/a//b', '/a?b']) {
      assert.throws(() => checkBasePath(path), refusal('invalid-path', path), path);
    }
  });

  it('takes ports from 1 to 65535, as numbers or digit strings', () => {
    assert.equal(checkPort('8000'), 8000);
    assert.equal(checkPort(65535), 65535);
    for (const port of ['0', '65536', '80.5', '-1', 'abc', '', 0, 1.5]) {
      assert.throws(() => checkPort(port), refusal('invalid-port', String(port)), String(port));
    }
  });
});

describe('examples', () => {
  it('always includes tasks and adds what admin needs, in catalogue order', () => {
    assert.deepEqual(resolveExamples([]), ['tasks']);
    assert.deepEqual(resolveExamples(['admin']), ['tasks', 'products', 'users', 'admin']);
    assert.deepEqual(resolveExamples(['pages', 'upload']), ['tasks', 'upload', 'pages']);
  });

  it('refuses an unknown example, listing the known ones', () => {
    assert.throws(
      () => resolveExamples(['products', 'blog']),
      (error: GeneratorError) =>
        error.reason === 'unknown-example' && error.subject === 'blog' && error.detail === 'tasks, products, users, upload, pages, admin',
    );
  });
});
