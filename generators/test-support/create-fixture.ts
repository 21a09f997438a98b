import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import { resolveExamples, type CreateRequest } from '../index';
import { tempDir } from './tree';

/**
 * A fresh temporary working folder per test, a `create` request for the full sample in it, and the files
 * that request writes.
 */
export function createFixture(): {
  cwd: () => ReturnType<typeof tempDir>;
  request: (overrides?: Partial<CreateRequest>) => CreateRequest;
  read: (file: string) => string;
} {
  let current: ReturnType<typeof tempDir>;
  beforeEach(() => (current = tempDir()));
  afterEach(() => current.remove());
  return {
    cwd: () => current,
    request: (overrides = {}) => ({
      cwd: current.path,
      name: 'demo',
      title: 'Demo API',
      description: 'A demo.',
      port: 8000,
      examples: resolveExamples(['products', 'users', 'upload', 'pages', 'admin']),
      adminToken: 'secret-token',
      ...overrides,
    }),
    read: (file) => readFileSync(join(current.path, 'demo', file), 'utf8'),
  };
}

/** Every file `create` writes for the full sample, sorted. */
export const FULL = [
  '.env',
  '.env.example',
  '.gitignore',
  'README.md',
  'config.yaml',
  'favicon.ico',
  'middleware/require_token.ts',
  'middleware/timing.ts',
  'package.json',
  'routers/admin.ts',
  'routers/pages.ts',
  'routers/posts.ts',
  'routers/products.ts',
  'routers/task_feed.ts',
  'routers/tasks.ts',
  'routers/upload.ts',
  'routers/users.ts',
  'services/product_service.ts',
  'services/task_events.ts',
  'services/task_service.ts',
  'services/user_service.ts',
  'static/style.css',
  'templates/index.html',
  'tests/task_feed.test.ts',
  'tests/tasks.test.ts',
  'tsconfig.json',
];
