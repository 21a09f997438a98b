import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { BaseRouter, Get, router, type Request } from '../index';
import { createLogger, deferredLogger } from '../logger';
import type { Logger } from '../core/logger';
import { Req } from '../param';
import { TestClient } from '../testing';
import { capturedLog } from './fixtures/captured-log';

const root = join(__dirname, '..', '..');

class Tasks extends router('/tasks') {
  @Get('/quiet') quiet() {
    return { ok: true };
  }

  @Get('/{task_id}') one(@Req() request: Request) {
    request.log.info({ taskId: 7 }, 'task read');
    request.log.warn('slow store');
    return { same: request.log === request.log };
  }
}

describe('request.log', () => {
  it("is the app logger's child carrying the request id (reqId), made once, on first use only", async () => {
    const { logger, lines } = capturedLog();
    const children: unknown[] = [];
    const counting: Logger = Object.assign(Object.create(logger), {
      child: (bindings: Record<string, unknown>) => (children.push(bindings), logger.child(bindings)),
    });
    const client = new TestClient(new BaseRouter({ logger: counting }).includeRouter(Tasks));

    assert.equal((await client.get('/tasks/quiet')).status, 200);
    assert.deepEqual(children, [], 'a request that logs nothing makes no child logger');

    const res = await client.get('/tasks/7');
    assert.deepEqual(res.json(), { same: true });
    const reqId = res.headers['x-request-id'];
    assert.deepEqual(children, [{ reqId }]);
    assert.deepEqual(
      lines.map(({ time, ...line }) => (assert.equal(typeof time, 'number'), line)),
      [
        { level: 30, reqId, taskId: 7, msg: 'task read' },
        { level: 40, reqId, msg: 'slow store' },
      ],
    );
  });
});

describe('AppOptions.logger', () => {
  it('takes a pino logger as it is: errors as { err, reqId }, request.log as its child', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ base: { app: 'tasks' } }, { write: (line: string) => lines.push(JSON.parse(line)) });
    class Failing extends router('/failing') {
      @Get() fail(@Req() request: Request) {
        request.log.warn('about to fail');
        throw new Error('boom');
      }
    }
    const res = await new TestClient(new BaseRouter({ logger }).includeRouter(Failing)).get('/failing');
    assert.equal(res.status, 500);
    const id = res.headers['x-request-id'];
    assert.deepEqual(
      lines.map(({ level, app, reqId, msg, err }) => [level, app, reqId, msg, (err as { message?: string } | undefined)?.message]),
      [
        [40, 'tasks', id, 'about to fail', undefined],
        [50, 'tasks', id, 'GET /failing failed', 'boom'],
      ],
    );
  });
});

describe('the default logger', () => {
  it('writes JSON lines to stdout (errors with their stack, request.log lines), loading pino only once something is logged', () => {
    const app = join(__dirname, 'fixtures', 'default-logger', 'app.ts');
    const run = spawnSync(process.execPath, ['-r', './register.js', app], { cwd: root, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stderr), [
      ['started', false],
      ['fine 200', false],
      ['boom 500', true],
      ['log 200', true],
    ]);
    const [error, info, ...rest] = run.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line));
    assert.deepEqual(rest, []);
    assert.deepEqual(Object.keys(error), ['level', 'time', 'err', 'reqId', 'msg'], 'no pid or hostname');
    assert.deepEqual([error.level, error.reqId, error.msg, error.err.type, error.err.message], [50, 'd-1', 'GET /probe/boom failed', 'Error', 'boom']);
    assert.match(error.err.stack, /^Error: boom\n {4}at /);
    assert.deepEqual({ ...info, time: 0 }, { level: 30, time: 0, reqId: 'd-2', step: 3, msg: 'from the handler' });
  });
});

describe('createLogger', () => {
  it('writes pino-pretty lines with pretty: true (local time, level, message, fields on one line; an error with its stack)', () => {
    const out: string[] = [];
    const logger = createLogger({ pretty: true, destination: { write: (line) => out.push(line) } });
    logger.child({ reqId: 'r-1' }).info({ taskId: 7 }, 'task read');
    logger.error({ err: new Error('boom') }, 'failed');
    assert.match(out[0], /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: task read \{"reqId":"r-1","taskId":7\}\n$/);
    assert.match(out[1], /^\[\d\d:\d\d:\d\d\.\d{3}\] ERROR: failed \n {4}err: \{\n[^]* {10}Error: boom\n {14}at /);
  });

  it('writes nothing below its level', () => {
    const { logger, lines } = capturedLog('warn');
    logger.info('no');
    logger.debug('no');
    logger.warn('yes');
    assert.deepEqual(lines.map((line) => line.msg), ['yes']);
  });
});

describe('deferredLogger', () => {
  it('makes its logger on first use (a line, a child, a property such as level) and forwards everything to it', () => {
    const { logger, lines } = capturedLog();
    let made = 0;
    const deferred = deferredLogger(() => (made++, logger));
    const { info } = deferred; // a method read alone makes nothing
    assert.equal(made, 0);
    info({ step: 1 }, 'first');
    deferred.child({ reqId: 'r-1' }).warn('from a child');
    assert.equal(made, 1);
    (deferred as unknown as { level: string }).level = 'error';
    assert.equal((logger as unknown as { level: string }).level, 'error');
    deferred.warn('below the level set through it');
    assert.deepEqual(lines.map(({ level, msg, reqId }) => [level, msg, reqId]), [[30, 'first', undefined], [40, 'from a child', 'r-1']]);
    const levelOnly = deferredLogger(() => createLogger({ level: 'debug' }));
    assert.equal((levelOnly as unknown as { level: string }).level, 'debug');
  });
});
