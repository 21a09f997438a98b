import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { IsString } from 'class-validator';
import { BaseRouter, Middleware, Post, router, type CallNext, type Request } from '../index';
import { Body, Req } from '../param';
import { TestClient } from '../testing';
import { silentLogger } from './fixtures/captured-log';

// One reader of the body (pipeline/body-reader.ts), called forward, and one writer (write.ts).
class TaskIn {
  @IsString() title!: string;
}

class Api extends router('/') {
  @Post('/task') task(@Body() task: TaskIn, @Req() request: Request) {
    return { title: task.title, seen: request.state.bodyReaderSeen };
  }
  @Post('/twice') async twice(@Req() request: Request) {
    const [first, second] = await Promise.all([request.json(), request.json()]);
    return { first, second, text: await request.text(), same: (await request.body()).length };
  }
}

declare module '../request' {
  interface RequestState {
    bodyReaderSeen?: string;
  }
}

// Reads the body before the route does; a refusal it swallows must reach the route as the same answer.
class ReadsFirst extends Middleware {
  async dispatch(request: Request, callNext: CallNext) {
    try {
      request.state.bodyReaderSeen = await request.text();
    } catch {
      request.state.bodyReaderSeen = 'refused';
    }
    return callNext(request);
  }
}

const client = new TestClient(new BaseRouter({ logger: silentLogger(), bodyLimit: 64 }).includeRouter(Api).addMiddleware(ReadsFirst));

describe('the body reader', () => {
  it('reads a body once: a middleware that read it first and the route\'s validated @Body() see the same bytes', async () => {
    const res = await client.post('/task', { json: { title: 'one read' } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), { title: 'one read', seen: '{"title":"one read"}' });
  });

  it('gives every later reader of a refused body the same refusal (413 over bodyLimit)', async () => {
    const res = await client.post('/task', { json: { title: 'x'.repeat(100) } });
    assert.equal(res.status, 413);
    assert.deepEqual(res.json(), { error: 'Request body is larger than 64 bytes' });
  });

  it('answers json(), text() and body() of one request from the one read', async () => {
    const res = await client.post('/twice', { json: [1, 2] });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), { first: [1, 2], second: [1, 2], text: '[1,2]', same: 5 });
  });

  it('never loads request.ts: it is called forward, by the argument phase and the request\'s accessors', () => {
    const root = join(__dirname, '..', '..');
    const loaded = execFileSync(
      process.execPath,
      ['--require', './register.js', '-e', "require('./framework/pipeline/body-reader'); console.log(Object.keys(require.cache).join('\\n'))"],
      { cwd: root, encoding: 'utf8' },
    ).split('\n');
    assert.ok(loaded.some((file) => file.endsWith(join('pipeline', 'body-reader.ts'))));
    assert.deepEqual(loaded.filter((file) => file.endsWith(join('framework', 'request.ts'))), []);
  });
});

describe('the writer', () => {
  it('is the only framework module that writes a response head or raw bytes to a socket', () => {
    const framework = join(__dirname, '..');
    const writers = (readdirSync(framework, { recursive: true }) as string[])
      .filter((name) => name.endsWith('.ts') && !name.split(/[\\/]/).includes('tests'))
      .filter((name) => /\.writeHead\(|socket\.write\(|\.end\(body/.test(readFileSync(join(framework, name), 'utf8')))
      .map((name) => relative(framework, join(framework, name)));
    assert.deepEqual(writers, ['write.ts']);
  });
});
