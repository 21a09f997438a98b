import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import express from 'express';
import { IsString } from 'class-validator';
import { BaseRouter, Get, Post, router, serverUrl } from '../index';
import { Body, Path, Query } from '../param';
import { TestClient } from '../testing';
import { silentLogger } from './fixtures/captured-log';

class NoteIn {
  @IsString() text!: string;
}

let release: () => void = () => {};
class Notes extends router('/notes') {
  @Get('/{id}') one(@Path('id') id: number, @Query('fields', { default: null }) fields: string | null) { return { id, fields }; }
  @Post() create(@Body() body: NoteIn) { return [body, 201]; }
  @Get('/slow') async slow() {
    await new Promise<void>((resolve) => { release = resolve; });
    return { slow: 'done' };
  }
}

const app = () => new BaseRouter({ logger: silentLogger() }).includeRouter(new Notes());
const servers: Server[] = [];
after(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

async function start(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('TestClient', () => {
  it('sends query, headers and JSON bodies in-process', async () => {
    const client = new TestClient(app());
    assert.deepEqual((await client.get('/notes/5', { query: { fields: 'text' } })).json(), { id: 5, fields: 'text' });
    const created = await client.post('/notes', { json: { text: 'hi' } });
    assert.equal(created.status, 201);
    assert.deepEqual(created.json(), { text: 'hi' });
  });

  it('also accepts a plain request listener', async () => {
    assert.equal((await new TestClient(app().handler).get('/notes/1')).status, 200);
  });
});

describe('real HTTP', () => {
  it('app.listen() serves on a real port', async () => {
    const server = await app().listen({ host: '127.0.0.1', port: 0 });
    servers.push(server);
    const base = serverUrl(server);
    const res = await fetch(`${base}/notes/7?fields=a`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.deepEqual(await res.json(), { id: 7, fields: 'a' });
    const post = await fetch(`${base}/notes`, { method: 'POST', body: JSON.stringify({ text: 1 }), headers: { 'content-type': 'application/json' } });
    assert.equal(post.status, 422);
    const head = await fetch(`${base}/notes/7`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
  });

  it('app.handler works with http.createServer', async () => {
    const base = await start(createServer(app().handler));
    assert.deepEqual(await (await fetch(`${base}/notes/2`)).json(), { id: 2, fields: null });
  });

  it('mounts inside an existing Express app', async () => {
    const outer = express();
    outer.get('/health', (_req, res) => { res.json({ ok: true }); });
    outer.use('/api', app().handler);
    const base = await start(createServer(outer));
    assert.deepEqual(await (await fetch(`${base}/health`)).json(), { ok: true });
    assert.deepEqual(await (await fetch(`${base}/api/notes/3`)).json(), { id: 3, fields: null });
    const created = await fetch(`${base}/api/notes`, { method: 'POST', body: '{"text":"x"}', headers: { 'content-type': 'application/json' } });
    assert.equal(created.status, 201);
    // No route of the app: on to Express, as after an Express router (its 404 here: no handler follows).
    const missing = await fetch(`${base}/api/nothing`);
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /Cannot GET \/api\/nothing/);
  });

  it('close() lets in-flight requests finish', async () => {
    const server = await app().listen({ host: '127.0.0.1', port: 0 });
    const base = serverUrl(server);
    const inFlight = fetch(`${base}/notes/slow`);
    await new Promise((r) => setTimeout(r, 50));
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    await assert.rejects(fetch(`${base}/notes/1`, { headers: { connection: 'close' } }), 'new connections are refused');
    release();
    const res = await inFlight;
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { slow: 'done' });
    await closed;
  });
});
