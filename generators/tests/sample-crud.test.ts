import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UserService } from '../../blueprints/project/services/user_service';
import { sampleClient } from '../test-support/sample-app';

// The sample project's routers, loaded from blueprints/project and served in-process.

describe('sample: tasks', () => {
  it('starts with tasks 1 and 2, without a description', async () => {
    const client = sampleClient();
    const res = await client.get('/tasks');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), [
      { id: 1, title: 'Read the trellis README', completed: false },
      { id: 2, title: 'Write a router of my own', completed: false },
    ]);
    assert.deepEqual((await client.get('/tasks/2')).json(), { id: 2, title: 'Write a router of my own', completed: false });
  });

  it('creates, replaces and deletes; ids are never reused', async () => {
    const client = sampleClient();
    const created = await client.post('/tasks', { json: { title: 'Ship it' } });
    assert.equal(created.status, 201);
    assert.deepEqual(created.json(), { id: 3, title: 'Ship it', description: '', completed: false });
    const replaced = await client.put('/tasks/3', { json: { title: 'Shipped', description: 'done', completed: true } });
    assert.deepEqual(replaced.json(), { id: 3, title: 'Shipped', description: 'done', completed: true });
    const deleted = await client.delete('/tasks/3');
    assert.equal(deleted.status, 200);
    assert.equal(typeof deleted.json().message, 'string');
    assert.equal((await client.get('/tasks/3')).status, 404);
    assert.equal((await client.post('/tasks', { json: { title: 'Next' } })).json().id, 4);
  });

  it('answers 404 {error} for unknown ids on GET, PUT and DELETE', async () => {
    const client = sampleClient();
    for (const res of [
      await client.get('/tasks/99'),
      await client.put('/tasks/99', { json: { title: 'x' } }),
      await client.delete('/tasks/99'),
    ]) {
      assert.equal(res.status, 404);
      assert.deepEqual(Object.keys(res.json()), ['error']);
    }
  });

  it('validates ids and bodies (422)', async () => {
    const client = sampleClient();
    assert.equal((await client.get('/tasks/abc')).status, 422);
    assert.equal((await client.get('/tasks/1.5')).status, 422);
    const missing = await client.post('/tasks', { json: { description: 'no title' } });
    assert.equal(missing.status, 422);
    assert.deepEqual([...new Set(missing.json().details.map((d: { field: string }) => d.field))], ['title']);
    assert.equal((await client.post('/tasks', { json: { title: 'x', completed: 'yes' } })).status, 422);
  });
});

describe('sample: products', () => {
  it('lists a page with the converted query echoed back', async () => {
    const client = sampleClient();
    const res = await client.get('/products');
    assert.deepEqual(res.json().query, { page: 1, limit: 10, category: null });
    assert.equal(res.json().items.length, 3);
    const page = (await client.get('/products', { query: { page: '2', limit: '2', category: 'hardware' } })).json();
    assert.deepEqual(page.query, { page: 2, limit: 2, category: 'hardware' });
    assert.deepEqual(page.items, []);
    const hardware = (await client.get('/products', { query: { category: 'hardware', limit: '1' } })).json();
    assert.deepEqual(hardware.items.map((p: { name: string }) => p.name), ['Keyboard']);
    assert.equal((await client.get('/products', { query: { limit: 'ten' } })).status, 422);
    const zero = await client.get('/products', { query: { page: '0', limit: '101' } });
    assert.equal(zero.status, 422);
    assert.deepEqual(zero.json(), {
      error: 'Validation failed',
      details: [
        { location: 'query', field: 'page', message: 'Input should be greater than or equal to 1' },
        { location: 'query', field: 'limit', message: 'Input should be less than or equal to 100' },
      ],
    });
    assert.equal((await client.get('/products', { query: { limit: '0' } })).status, 422);
    assert.equal((await client.get('/products', { query: { page: '1', limit: '100' } })).status, 200);
  });

  it('searches with a required q, floats, sort and paging', async () => {
    const client = sampleClient();
    assert.equal((await client.get('/products/search')).status, 422);
    const res = await client.get('/products/search', { query: { q: 'E', min_price: '9.5', max_price: '30', sort: 'price' } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json().query, { q: 'E', category: null, min_price: 9.5, max_price: 30, sort: 'price', page: 1, limit: 20 });
    assert.deepEqual(res.json().items.map((p: { name: string }) => p.name), ['Coffee mug', 'Desk lamp']);
    const byName = (await client.get('/products/search', { query: { q: 'e' } })).json();
    assert.deepEqual(byName.items.map((p: { name: string }) => p.name), ['Coffee mug', 'Desk lamp', 'Keyboard']);
    const colour = await client.get('/products/search', { query: { q: 'e', sort: 'colour' } });
    assert.equal(colour.status, 422);
    assert.deepEqual(colour.json(), {
      error: 'Validation failed',
      details: [{ location: 'query', field: 'sort', message: "Input should be 'name' or 'price'" }],
    });
    assert.equal((await client.get('/products/search', { query: { q: 'e', page: '0' } })).status, 422);
    assert.equal((await client.get('/products/search', { query: { q: 'e', min_price: 'cheap' } })).status, 422);
  });

  it('creates products (201) with defaults, validating each field', async () => {
    const client = sampleClient();
    const res = await client.post('/products', { json: { name: 'Pen', price: 1.2 } });
    assert.equal(res.status, 201);
    assert.deepEqual(res.json(), { id: 4, name: 'Pen', price: 1.2, description: null, tags: [] });
    assert.deepEqual((await client.get('/products/4')).json(), res.json());
    const bad = await client.post('/products', { json: { name: '', price: 0, description: 'x'.repeat(501), tags: [1] } });
    assert.equal(bad.status, 422);
    const fields = new Set(bad.json().details.map((d: { field: string }) => d.field));
    assert.deepEqual([...fields].sort(), ['description', 'name', 'price', 'tags']);
    assert.equal((await client.post('/products', { json: { name: 'x'.repeat(101), price: 1 } })).status, 422);
  });

  it('creates a batch (201), or none when an item is invalid', async () => {
    const client = sampleClient();
    const res = await client.post('/products/batch', { json: [{ name: 'A', price: 1 }, { name: 'B', price: 2, tags: ['t'] }] });
    assert.equal(res.status, 201);
    assert.deepEqual(res.json().map((p: { id: number }) => p.id), [4, 5]);
    const bad = await client.post('/products/batch', { json: [{ name: 'C', price: 3 }, { name: 'D', price: -1 }] });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.json().details.map((d: { field: string }) => d.field), ['[1].price']);
    assert.equal((await client.get('/products/6')).status, 404);
    assert.equal((await client.get('/products/abc')).status, 422);
  });
});

describe('sample: users and posts', () => {
  it("creates users (201) from the specification's user input model exactly, and validates name, email and age", async () => {
    const client = sampleClient();
    const res = await client.post('/users', { json: { name: 'Ada', email: 'ada@example.com', age: 36 } });
    assert.equal(res.status, 201);
    assert.deepEqual(res.json(), { id: 1, name: 'Ada', email: 'ada@example.com', age: 36 });
    assert.deepEqual((await client.get('/users/1')).json(), res.json());
    for (const body of [
      { name: 'A', email: 'not-an-email', age: 30 },
      { name: 'A', email: 'a@example.com', age: 12 },
      { name: 'A', email: 'a@example.com', age: 121 },
      { name: 'A', email: 'a@example.com', age: 13.5 },
      { name: '', email: 'a@example.com', age: 30 },
      { name: 'A', email: 'a@example.com' },
    ]) {
      assert.equal((await client.post('/users', { json: body })).status, 422, JSON.stringify(body));
    }
    for (const age of [13, 120]) assert.equal((await client.post('/users', { json: { name: 'A', email: 'a@example.com', age } })).status, 201);
  });

  it('never sends what the service keeps to itself: the e-mail confirmation secret stays out of `UserOut`', async () => {
    const client = sampleClient();
    const created = await client.post('/users', { json: { name: 'Ada', email: 'ada@example.com', age: 36 } });
    const fetched = await client.get('/users/1');
    // The service keeps a secret per user...
    const stored = new UserService().add({ name: 'Ada', email: 'ada@example.com', age: 36 });
    assert.match(stored.emailToken, /^[\w-]{32}$/);
    // ...which no response carries.
    for (const res of [created, fetched]) {
      assert.deepEqual(Object.keys(res.json()).sort(), ['age', 'email', 'id', 'name']);
      assert.doesNotMatch(res.text, /emailToken|token/i);
    }
  });

  it('matches /users/me before /users/{user_id}', async () => {
    const client = sampleClient();
    const me = await client.get('/users/me');
    assert.equal(me.status, 200);
    assert.equal(me.json().user, 'me');
    assert.equal((await client.get('/users/99')).status, 404);
    assert.equal((await client.get('/users/abc')).status, 422);
  });

  it('passes the base-path user_id to posts as a number', async () => {
    const res = await sampleClient().get('/users/7/posts');
    assert.equal(res.status, 200);
    assert.equal(res.json().user_id, 7);
    assert.ok(Array.isArray(res.json().posts));
    assert.equal((await sampleClient().get('/users/x/posts')).status, 422);
  });
});

describe('sample: every string a client sends is bounded', () => {
  const long = (n: number) => 'x'.repeat(n);
  const cases: Array<[string, string, Record<string, unknown>, string]> = [
    ['POST', '/tasks', { title: long(201) }, 'title'],
    ['POST', '/tasks', { title: '' }, 'title'],
    ['POST', '/tasks', { title: 'ok', description: long(2001) }, 'description'],
    ['PUT', '/tasks/1', { title: long(500_000) }, 'title'],
    ['POST', '/products', { name: 'Pen', price: 1, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags'],
    ['POST', '/products', { name: 'Pen', price: 1, tags: [long(31)] }, 'tags'],
    ['POST', '/products', { name: 'Pen', price: 1, tags: [''] }, 'tags'],
    ['POST', '/users', { name: 'Ada', email: `${long(250)}@example.com`, age: 36 }, 'email'],
    ['POST', '/users', { name: long(101), email: 'ada@example.com', age: 36 }, 'name'],
  ];

  it('answers 422 naming the field for an over-long (or empty) value, and stores nothing', async () => {
    for (const [method, path, json, field] of cases) {
      const client = sampleClient();
      const res = method === 'POST' ? await client.post(path, { json }) : await client.put(path, { json });
      assert.equal(res.status, 422, `${method} ${path} ${field}`);
      assert.deepEqual([...new Set(res.json().details.map((d: { field: string }) => d.field))], [field], `${method} ${path}`);
      const stored = (await client.get(path.replace(/\/\d+$/, ''))).json() as Array<Record<string, unknown>>;
      assert.ok(!JSON.stringify(stored).includes(long(31)), `${method} ${path}: nothing long was stored`);
    }
  });

  it('accepts values at the limits', async () => {
    const client = sampleClient();
    assert.equal((await client.post('/tasks', { json: { title: long(200), description: long(2000) } })).status, 201);
    const tags = Array.from({ length: 20 }, () => long(30));
    assert.equal((await client.post('/products', { json: { name: long(100), price: 1, tags } })).status, 201);
  });
});
