import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter, Get, Post, router } from '../index';
import { cors } from '../plugins';
import type { CorsOptions } from '../cors/options';
import { TestClient } from '../testing';

class Tasks extends router('/tasks') {
  @Get('/') list() {
    return [];
  }

  @Post('/') create() {
    return { id: 1 };
  }
}

const client = (options: CorsOptions = { origins: ['http://localhost:5173', 'https://*.example.com', 'http://localhost:*'] }) =>
  new TestClient(new BaseRouter({ sourceTypes: false }).register(cors(options)).includeRouter(Tasks));

async function allowed(c: TestClient, origin: string): Promise<string | undefined> {
  const res = await c.get('/tasks', { headers: { origin } });
  assert.equal(res.status, 200, origin);
  return res.headers['access-control-allow-origin'] as string | undefined;
}

describe('CORS against hostile origins', () => {
  it('matches patterns by whole labels, anchored: no apex, no suffix tricks, no other scheme or port', async () => {
    const c = client();
    assert.equal(await allowed(c, 'https://app.example.com'), 'https://app.example.com');
    assert.equal(await allowed(c, 'https://a.b.example.com'), 'https://a.b.example.com');
    for (const origin of [
      'https://evil.com.example.com.attacker.net',
      'https://example.com',
      'https://evilexample.com',
      'http://app.example.com',
      'https://app.example.com:8443',
      'https://app.example.com.',
      'https://app.example.com/path',
      'https://user@app.example.com',
      'HTTPS://APP.EXAMPLE.COM',
      'http://localhost:5173.evil.test',
    ]) {
      assert.equal(await allowed(c, origin), undefined, origin);
    }
    assert.equal(await allowed(c, 'http://localhost:3000'), 'http://localhost:3000', 'a port pattern');
  });

  it("refuses Origin 'null', a very long origin, and lists joined by a proxy", async () => {
    const c = client();
    assert.equal(await allowed(c, 'null'), undefined);
    assert.equal(await allowed(c, `https://${'a.'.repeat(6000)}example.com`), undefined);
    assert.equal(await allowed(c, 'http://localhost:5173, https://evil.test'), undefined);
  });

  it('never reflects CR/LF or other raw bytes: no 500, no injected header', async () => {
    const c = client();
    for (const origin of ['https://app.example.com\r\nx-injected: 1', 'https://app.example.com\n', 'https://app.\u00e9xample.com']) {
      const res = await c.get('/tasks', { headers: { origin } }).catch((error: Error) => error);
      if (res instanceof Error) continue; // refused before the app (the HTTP parser's job)
      assert.equal(res.status, 200);
      assert.equal(res.headers['x-injected'], undefined);
      assert.equal(res.headers['access-control-allow-origin'], undefined);
    }
    const preflight = await c
      .options('/tasks', { headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-a\r\nx-injected: 1' } })
      .catch((error: Error) => error);
    if (!(preflight instanceof Error)) {
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers['x-injected'], undefined);
      assert.equal(preflight.headers['access-control-allow-headers'], undefined);
    }
  });

  it('echoes a long list of requested headers only when every name is a token and the list is bounded', async () => {
    const c = client();
    const ask = (value: string) => c.options('/tasks', { headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': value } });
    const many = Array.from({ length: 200 }, (_, i) => `x-h${i}`).join(', ');
    assert.equal((await ask(many)).headers['access-control-allow-headers'], many);
    for (const bad of ['x-a, x b', 'x-a,,x-b', 'x-a; x-b', '"x-a"', Array.from({ length: 800 }, (_, i) => `x-header-${i}`).join(',')]) {
      const res = await ask(bad);
      assert.equal(res.status, 204, bad.slice(0, 30));
      assert.equal(res.headers['access-control-allow-origin'], 'http://localhost:5173');
      assert.equal(res.headers['access-control-allow-headers'], undefined, bad.slice(0, 30));
    }
  });

  it('takes a requested method in any case and an unknown one without failing', async () => {
    const c = client();
    for (const method of ['post', 'PoSt', 'PROPFIND', '__proto__', 'constructor', 'x'.repeat(5000)]) {
      const res = await c.options('/tasks', { headers: { origin: 'http://localhost:5173', 'access-control-request-method': method } });
      assert.equal(res.status, 204, method.slice(0, 20));
      assert.equal(res.headers['access-control-allow-methods'], 'GET, HEAD, POST, PUT, PATCH, DELETE');
    }
  });

  it('uses a RegExp given in code as it is, once per test (a /g flag keeps no state)', async () => {
    const c = client({ origins: [/^https:\/\/preview-\d+\.example\.dev$/g] });
    for (let i = 0; i < 3; i++) assert.equal(await allowed(c, 'https://preview-42.example.dev'), 'https://preview-42.example.dev');
    assert.equal(await allowed(c, 'https://preview-42.example.dev\r\n'), undefined);
  });

  it('refuses options that are not origins, patterns, tokens or a max age, with TRELLIS_ERR_CORS_OPTION', () => {
    for (const options of [
      { origins: ['http://localhost:5173/'] },
      { origins: ['null'] },
      { origins: ['localhost:5173'] },
      { origins: ['https://*example.com'] },
      { origins: ['https://app.*.com'] },
      { origins: ['*.example.com'] },
      { origins: [42 as unknown as string] },
      { methods: ['GE T'] },
      { headers: ['x-a\r\n'] },
      { exposeHeaders: [''] },
      { maxAge: -1 },
      { maxAge: 1.5 },
    ]) {
      assert.throws(() => cors(options), (error: Error & { code?: string }) => error.code === 'TRELLIS_ERR_CORS_OPTION', JSON.stringify(options));
    }
    assert.throws(() => cors({ origins: '*', credentials: true }), (error: Error & { code?: string }) => error.code === 'TRELLIS_ERR_CORS_CREDENTIALS');
    assert.throws(() => cors({ credentials: true }), (error: Error & { code?: string }) => error.code === 'TRELLIS_ERR_CORS_CREDENTIALS');
  });
});
