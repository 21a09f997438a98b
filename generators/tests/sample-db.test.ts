import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from 'pg';
import { BaseRouter, Config } from '../../framework/index';
import { database, testDatabase } from '../../framework/database';
import { createLogger } from '../../framework/logger';
import type { Plugin } from '../../framework/plugins';
import { isRouterClass } from '../../framework/router';
import { TestClient } from '../../framework/testing';
import { createProject, EXAMPLE_NAMES, resolveExamples } from '../index';
import { linkInstall } from '../test-support/linked-install';
import { ADMIN_TOKEN, sampleClient } from '../test-support/sample-app';
import { tempDir } from '../test-support/tree';

// The --db sample answers as the in-memory sample does: the same requests, in order, against the sample of
// blueprints/project, the --db sample on testDatabase (PGlite) and the --db sample on a PostgreSQL 15 server,
// migrated by its own migrations. Status and body must be equal, request by request.

const SERVER_URL = process.env.TRELLIS_TEST_DATABASE_URL ?? 'postgres://trellis:trellis@127.0.0.1:5432/trellis';
const json = (body: unknown) => ({ json: body });
const auth = { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } };

const REQUESTS: Array<[method: 'get' | 'post' | 'put' | 'delete', path: string, options?: object]> = [
  ['get', '/tasks'],
  ['get', '/tasks/1'],
  ['get', '/tasks/999'],
  ['post', '/tasks', json({ title: 'Ship it' })],
  ['post', '/tasks', json({ title: 42 })],
  ['post', '/tasks', json({ description: 'no title' })],
  ['get', '/tasks/3'],
  ['put', '/tasks/3', json({ title: 'Shipped', description: 'done', completed: true })],
  ['put', '/tasks/99', json({ title: 'Nobody' })],
  ['put', '/tasks/1', json({ title: '' })],
  ['delete', '/tasks/3'],
  ['delete', '/tasks/3'],
  ['post', '/tasks', json({ title: 'Four', completed: true })],
  ['get', '/tasks'],
  ['get', '/products'],
  ['get', '/products?page=2&limit=2'],
  ['get', '/products?category=hardware'],
  ['get', '/products?limit=101'],
  ['get', '/products?page=0'],
  ['get', '/products/search?q=e&sort=price'],
  ['get', '/products/search?q=E&sort=name&min_price=10&max_price=40'],
  ['get', '/products/search?q=lamp&category=home'],
  ['get', '/products/search?q=x&sort=size'],
  ['post', '/products', json({ name: 'apple corer', price: 3.25, tags: ['kitchen'] })],
  ['post', '/products', json({ name: 'Free', price: 0 })],
  ['post', '/products/batch', json([{ name: 'Pen', price: 1.5 }, { name: 'Pad', price: 2, description: 'A5', tags: ['office'] }])],
  ['post', '/products/batch', json([{ name: 'Ok', price: 1 }, { name: '', price: 1 }])],
  ['get', '/products/search?q=&sort=name&limit=100'],
  ['get', '/products/6'],
  ['get', '/products/99'],
  ['post', '/users', json({ name: 'Ada', email: 'ada@example.com', age: 36 })],
  ['post', '/users', json({ name: 'Kid', email: 'kid@example.com', age: 12 })],
  ['get', '/users/1'],
  ['get', '/users/2'],
  ['get', '/users/me'],
  ['get', '/users/1/posts'],
  ['get', '/admin/stats', auth],
];

async function answers(client: TestClient): Promise<string[]> {
  const lines: string[] = [];
  for (const [method, path, options] of REQUESTS) {
    const res = await client[method](path, options);
    lines.push(`${method.toUpperCase()} ${path} -> ${res.status} ${res.text}`);
  }
  return lines;
}

/** The --db sample rendered in `dir` (kysely reachable from it), put together as `trellis run` would, on `db`. */
function dbSample(dir: string, db: Plugin): BaseRouter {
  const load = (folder: string) => readdirSync(join(dir, folder)).filter((f) => f.endsWith('.ts')).map((f) => require(join(dir, folder, f)));
  const app = new BaseRouter({ title: 'Demo API', logger: createLogger({ level: 'silent' }) });
  app.provide(new Config({ app: { title: 'Demo API' }, admin: { token: ADMIN_TOKEN } }));
  app.register(db);
  for (const module of load('services')) app.provide(...Object.values(module).filter((v): v is new () => object => typeof v === 'function' && /^class\b/.test(String(v))));
  for (const module of load('routers')) for (const value of Object.values(module)) if (isRouterClass(value)) app.includeRouter(value as never);
  return app;
}

async function withServer<T>(url: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

describe('the --db sample answers as the in-memory sample', { timeout: 300_000 }, () => {
  const cwd = tempDir();
  const dir = join(cwd.path, 'demo');
  const scratch = `trellis_sample_${randomBytes(6).toString('hex')}`;
  let expected: string[];

  before(async () => {
    await createProject({ cwd: cwd.path, name: 'demo', title: 'Demo API', description: 'A demo.', port: 8000, examples: resolveExamples(EXAMPLE_NAMES), db: true });
    linkInstall(dir, ['kysely']);
    expected = await answers(sampleClient());
  });
  after(async () => {
    cwd.remove();
    await withServer(SERVER_URL, (client) => client.query(`drop database if exists ${scratch} with (force)`));
  });

  it('on the embedded database of a test (testDatabase)', async (t) => {
    const client = new TestClient(dbSample(dir, testDatabase({ migrations: join(dir, 'migrations') })));
    t.after(() => client.close());
    assert.deepEqual(await answers(client), expected);
  });

  it('on a PostgreSQL server, the tables made by the migrations', async (t) => {
    await withServer(SERVER_URL, (client) => client.query(`create database ${scratch}`));
    const url = Object.assign(new URL(SERVER_URL), { pathname: `/${scratch}` }).toString();
    const client = new TestClient(dbSample(dir, database({ url, migrations: join(dir, 'migrations'), migrate: 'latest' })));
    t.after(() => client.close());
    assert.deepEqual(await answers(client), expected);
  });
});
