import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { ADMIN_TOKEN, multipart, sampleApp, sampleClient, sampleRouters } from '../test-support/sample-app';

describe('sample: every router loads', () => {
  it('routers/ exports the seven example routers', () => {
    assert.deepEqual([...sampleRouters().keys()].sort(), [
      'AdminRouter',
      'PageRouter',
      'PostRouter',
      'ProductRouter',
      'TaskRouter',
      'UploadRouter',
      'UserRouter',
    ]);
  });

  it('documents ids, page, limit and age as integers, their limits and sort\'s values, and handlers by their doc comments', () => {
    const doc = sampleApp().openapi() as any;
    const param = (path: string, name: string) =>
      [...(doc.paths[path].get?.parameters ?? []), ...(doc.paths[path].put?.parameters ?? [])].find((p: any) => p.name === name);
    assert.equal(param('/tasks/{task_id}', 'task_id').schema.type, 'integer');
    assert.equal(param('/products/{product_id}', 'product_id').schema.type, 'integer');
    assert.equal(param('/users/{user_id}', 'user_id').schema.type, 'integer');
    assert.equal(param('/users/{user_id}/posts', 'user_id').schema.type, 'integer');
    assert.deepEqual(param('/products', 'page').schema, { type: 'integer', minimum: 1, default: 1 });
    assert.deepEqual(param('/products', 'limit').schema, { type: 'integer', minimum: 1, maximum: 100, default: 10 });
    assert.deepEqual(param('/products/search', 'limit').schema, { type: 'integer', minimum: 1, maximum: 100, default: 20 });
    assert.deepEqual(param('/products/search', 'sort').schema, { type: 'string', enum: ['name', 'price'], default: 'name' });
    assert.equal(param('/products/search', 'min_price').schema.type, 'number');
    assert.equal(doc.components.schemas.UserIn.properties.age.type, 'integer');
    assert.equal(doc.paths['/tasks'].get.summary, 'Lists every task, oldest first.');
  });
});

describe('sample: upload', () => {
  it('answers the file name and its size in bytes', async () => {
    const { body, headers } = multipart('file', 'notes.txt', Buffer.from('hello, trellis'));
    const res = await sampleClient().post('/upload/file', { body, headers });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), { filename: 'notes.txt', size: 14 });
  });

  it('answers 400 {error} without a file', async () => {
    const { body, headers } = multipart('other', 'x.bin', Buffer.from('x'));
    for (const res of [
      await sampleClient().post('/upload/file'),
      await sampleClient().post('/upload/file', { body, headers }),
      await sampleClient().post('/upload/file', { body: Buffer.from('--b--\r\n'), headers: { 'content-type': 'multipart/form-data; boundary=b' } }),
    ]) {
      assert.equal(res.status, 400);
      assert.equal(typeof res.json().error, 'string');
    }
  });

  it('requires the file through @UploadedFile(\'file\', { required: true }): the 400 names the field, the document marks it required', async () => {
    const empty = await sampleClient().post('/upload/file', { body: Buffer.from('--b--\r\n'), headers: { 'content-type': 'multipart/form-data; boundary=b' } });
    assert.deepEqual(empty.json(), { error: 'Missing file in the multipart field "file"' });
    const doc = (await sampleClient().get('/docs/openapi.json')).json();
    assert.deepEqual(doc.paths['/upload/file'].post.requestBody.content['multipart/form-data'].schema.required, ['file']);
  });
});

describe('sample: pages', () => {
  it('renders templates/index.html with the title and a link to /docs/', async () => {
    const res = await sampleClient().get('/');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(res.text, /<title>Demo API<\/title>/);
    assert.match(res.text, /<p>A demo\.<\/p>/);
    assert.match(res.text, /<a href="\/docs\/">/);
  });

  it('redirects /home to /', async () => {
    const res = await sampleClient().get('/home');
    assert.equal(res.status, 307);
    assert.equal(res.headers.location, '/');
  });
});

describe('sample: admin behind require_token', () => {
  const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };

  it('answers 401 {error} without the configured Bearer token', async () => {
    const client = sampleClient();
    for (const headers of [{} as Record<string, string>, { authorization: 'Bearer wrong' }, { authorization: ADMIN_TOKEN }, { authorization: `Bearer ${ADMIN_TOKEN}x` }]) {
      for (const path of ['/admin/stats', '/admin/whoami']) {
        const res = await client.get(path, { headers });
        assert.equal(res.status, 401, `${path} ${JSON.stringify(headers)}`);
        assert.equal(res.headers['www-authenticate'], 'Bearer');
        assert.equal(typeof res.json().error, 'string');
      }
    }
  });

  it('documents the bearer scheme and a 401 on the admin routes, and only there', () => {
    const doc = sampleApp().openapi() as any;
    assert.deepEqual(doc.components.securitySchemes, { bearerAuth: { type: 'http', scheme: 'bearer' } });
    const guarded = Object.entries(doc.paths as Record<string, Record<string, any>>)
      .flatMap(([path, item]) => Object.entries(item).filter(([, op]) => op.security).map(([method, op]) => [`${method} ${path}`, op.security, Object.hasOwn(op.responses, '401')]));
    assert.deepEqual(guarded, [['get /admin/stats', [{ bearerAuth: [] }], true], ['get /admin/whoami', [{ bearerAuth: [] }], true]]);
    assert.deepEqual(doc.servers, [{ url: '/' }]);
  });

  it('counts tasks, products and users from the services the other routers share', async () => {
    const client = sampleClient();
    assert.deepEqual((await client.get('/admin/stats', { headers: auth })).json(), { tasks: 2, products: 3, users: 0 });
    await client.post('/users', { json: { name: 'Ada', email: 'ada@example.com', age: 36 } });
    await client.delete('/tasks/1');
    assert.deepEqual((await client.get('/admin/stats', { headers: auth })).json(), { tasks: 1, products: 3, users: 1 });
  });

  it('reads the User-Agent header, "unknown" when absent', async () => {
    const res = await sampleClient().get('/admin/whoami', { headers: { ...auth, 'user-agent': 'curl/8.5' } });
    assert.deepEqual(res.json(), { user_agent: 'curl/8.5' });
    // The in-process client always sends a User-Agent; node's http client sends none.
    const server = await sampleApp().listen({ host: '127.0.0.1', port: 0 });
    try {
      const { port } = server.address() as { port: number };
      const body = await new Promise<string>((resolve, reject) => {
        request({ host: '127.0.0.1', port, path: '/admin/whoami', headers: auth }, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk)).on('end', () => resolve(text));
        })
          .on('error', reject)
          .end();
      });
      assert.deepEqual(JSON.parse(body), { user_agent: 'unknown' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('sample: timing middleware', () => {
  it('adds X-Process-Time to every response, errors and 404s included', async () => {
    const client = sampleClient();
    for (const res of [await client.get('/tasks'), await client.get('/tasks/99'), await client.get('/nowhere'), await client.get('/admin/stats')]) {
      assert.match(String(res.headers['x-process-time']), /^\d+\.\d{3}ms$/);
    }
  });
});
