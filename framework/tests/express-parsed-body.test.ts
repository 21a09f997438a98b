import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import express from 'express';
import fc from 'fast-check';
import { IsString } from 'class-validator';
import { BaseRouter, Post, router, type Request } from '../index';
import { HTTPException } from '../http-exception';
import { Body, Req } from '../param';
import { MAX_JSON_DEPTH, parseJson } from '../pipeline/body';
import { checkParsedJson } from '../pipeline/parsed-json';
import { silentLogger } from './fixtures/captured-log';

class Item {
  @IsString() name!: string;
}
class Take extends router('/take') {
  @Post('/raw') async raw(@Req() request: Request) { return { got: await request.json() }; }
  @Post('/batch') batch(@Body({ type: Item, maxItems: 3 }) items: Item[]) { return { count: items.length }; }
}

const limits = { maxObjectKeys: 5, maxJsonContainers: 70 };
const app = () => new BaseRouter({ docs: false, logger: silentLogger(), ...limits }).includeRouter(Take);

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const keys = (count: number) => JSON.stringify(Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i])));
const bodies: Array<[name: string, path: string, body: string]> = [
  ['nested 64 levels', '/take/raw', nested(MAX_JSON_DEPTH)],
  ['nested 65 levels', '/take/raw', nested(MAX_JSON_DEPTH + 1)],
  ['__proto__ key', '/take/raw', '{"a":{"__proto__":{"admin":true}}}'],
  ['constructor.prototype keys', '/take/raw', '[{"constructor":{"prototype":{"admin":true}}}]'],
  ['a constructor key alone', '/take/raw', '{"constructor":{"name":"x"}}'],
  ['maxObjectKeys keys', '/take/raw', keys(5)],
  ['maxObjectKeys + 1 keys', '/take/raw', keys(6)],
  ['maxJsonContainers + 1 containers', '/take/raw', JSON.stringify(Array.from({ length: 70 }, () => ({})))],
  ['maxItems items', '/take/batch', JSON.stringify([{ name: 'a' }, { name: 'b' }, { name: 'c' }])],
  ['maxItems + 1 items', '/take/batch', JSON.stringify([{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }])],
];

const servers: Server[] = [];
async function start(listener: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
after(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

async function post(url: string, body: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  return { status: res.status, body: await res.text() };
}

describe('a body parsed by express.json() before a mounted app', () => {
  let alone: string;
  let mounted: string;
  before(async () => {
    alone = await start(app().handler);
    const outer = express();
    outer.use(express.json({ limit: '1mb' }));
    outer.use('/api', app().handler);
    mounted = await start(outer);
  });

  for (const [name, path, body] of bodies) {
    it(`is answered as the app alone answers it: ${name}`, async () => {
      assert.deepEqual(await post(`${mounted}/api${path}`, body), await post(`${alone}${path}`, body));
    });
  }

  it('is refused past each limit (the statuses above, pinned)', async () => {
    const statuses = [];
    for (const [, path, body] of bodies) statuses.push((await post(`${mounted}/api${path}`, body)).status);
    assert.deepEqual(statuses, [200, 400, 400, 400, 200, 200, 413, 413, 200, 413]);
  });
});

// The walk over a parsed value against parseJson over its bytes: the same answer, refusal message included
// (both report the first excess in the order of the bytes).
describe('checkParsedJson agrees with parseJson (fast-check, seed 20261126)', () => {
  const outcome = (run: () => unknown) => {
    try {
      run();
      return 'accepted';
    } catch (error) {
      assert.ok(error instanceof HTTPException);
      return `${error.status} ${error.message}`;
    }
  };
  const small = { maxObjectKeys: 3, maxJsonContainers: 12 };
  const values = fc.jsonValue({ maxDepth: 5 }).chain((inner) =>
    fc.oneof(
      fc.constant(inner),
      fc.constant(JSON.parse(`{"__proto__":${JSON.stringify(inner)}}`)),
      fc.constant({ constructor: { prototype: inner } }),
      fc.integer({ min: 60, max: 67 }).map((depth) => JSON.parse(nested(depth))),
    ),
  );
  it('on 2,000 values with small limits', () => {
    fc.assert(
      fc.property(values, fc.oneof(fc.integer({ min: 1, max: 4 }), fc.constant(Infinity)), (value, maxItems) => {
        const text = JSON.stringify(value);
        const bytes = outcome(() => parseJson(Buffer.from(text), small, maxItems));
        const parsed = outcome(() => checkParsedJson(JSON.parse(text), small, maxItems));
        assert.equal(parsed, bytes, text);
      }),
      { numRuns: 2000, seed: 20261126 },
    );
  });
});
