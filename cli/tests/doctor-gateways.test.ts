import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { analyse } from '../doctor/analyse';
import type { DoctorReport } from '../doctor/report';
import { cleanup, copyFixture, runCli } from './run-support';

after(cleanup);

// Two gateways: one with guards (its base class's first) and validated messages, one bare.
const FEED = `import { IsString, Length } from 'class-validator';
import { Injectable, Use } from 'trellis';
import { gateway, OnMessage, Rooms, type WebSocketClient } from 'trellis/websocket';
import { RequireToken } from '../middleware/require_token';
import { Timing } from '../middleware/timing';

export class Subscribe {
  @IsString() @Length(1, 50) room!: string;
}

@Use(RequireToken)
abstract class Guarded extends gateway('/ws/rooms/{room}') {}

/** A room's messages, for holders of the admin token. */
@Injectable()
@Use(Timing)
export class RoomFeed extends Guarded {
  constructor(private readonly rooms: Rooms) {
    super();
  }

  @OnMessage('subscribe')
  subscribe(client: WebSocketClient, data: Subscribe) {
    client.join(data.room);
  }

  @OnMessage('leave')
  leave(client: WebSocketClient, data: Subscribe) {
    client.leave(data.room);
  }
}

export class Pulse extends gateway('/ws/pulse') {}
`;

function withFeed(source = FEED, file = 'feed.ts'): string {
  const dir = copyFixture('healthy');
  writeFileSync(join(dir, 'routers', file), source);
  return dir;
}

/** The lines from `Gateways:` to the next section. */
function gatewaySection(stdout: string): string[] {
  const lines = stdout.split('\n');
  const start = lines.findIndex((line) => line.startsWith('Gateways:'));
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('  '));
  return lines.slice(start, end);
}

const lineOf = (dir: string, file: string, text: string) => readFileSync(join(dir, file), 'utf8').split('\n').findIndex((line) => line.includes(text)) + 1;
const findings = (list: DoctorReport['errors']) => list.map((f) => `${f.file ?? '-'}:${f.line ?? '-'} ${f.code} ${f.message}`);

describe('trellis doctor with WebSocket gateways in routers/', () => {
  it('lists each gateway: path, class, guards in the order they run, message events, file:line', async () => {
    const dir = withFeed();
    const result = await runCli(['doctor', '.'], { cwd: dir });
    assert.equal(result.stderr, '');
    assert.deepEqual(gatewaySection(result.stdout), [
      'Gateways: 2 discovered (WebSocket)',
      '  PATH              CLASS     GUARDS                EVENTS            SOURCE',
      `  /ws/rooms/{room}  RoomFeed  RequireToken, Timing  subscribe, leave  routers/feed.ts:${lineOf(dir, 'routers/feed.ts', 'class RoomFeed')}`,
      `  /ws/pulse         Pulse     -                     -                 routers/feed.ts:${lineOf(dir, 'routers/feed.ts', 'class Pulse')}`,
    ]);
    // The gateways' guards are used middleware, and nothing about them is an error.
    assert.doesNotMatch(result.stdout, /unused-middleware|Errors:/);
    assert.equal(result.code, 0, result.stdout);
  });

  it('prints them in --json too', async () => {
    const dir = withFeed();
    const result = await runCli(['doctor', '.', '--json'], { cwd: dir });
    assert.equal(result.code, 0, result.stdout);
    const report = JSON.parse(result.stdout) as DoctorReport;
    assert.deepEqual(report.gateways, [
      { path: '/ws/rooms/{room}', name: 'RoomFeed', file: 'routers/feed.ts', line: lineOf(dir, 'routers/feed.ts', 'class RoomFeed'), guards: ['RequireToken', 'Timing'], events: ['subscribe', 'leave'], rejected: false },
      { path: '/ws/pulse', name: 'Pulse', file: 'routers/feed.ts', line: lineOf(dir, 'routers/feed.ts', 'class Pulse'), guards: [], events: [], rejected: false },
    ]);
    assert.deepEqual(report.errors, []);
  });

  it('has no gateway section and an empty list without gateways', async () => {
    const report = await analyse(copyFixture('healthy'));
    assert.deepEqual(report.gateways, []);
    const result = await runCli(['doctor', '.'], { cwd: copyFixture('healthy') });
    assert.doesNotMatch(result.stdout, /Gateways:/);
  });

  it('counts a service only a gateway injects as used', async () => {
    const dir = withFeed(`import { Injectable } from 'trellis';
import { gateway, type WebSocketClient } from 'trellis/websocket';
import { TaskService } from '../services/task_service';

@Injectable()
export class TaskFeed extends gateway('/ws/tasks') {
  constructor(private readonly tasks: TaskService) {
    super();
  }

  onConnect(client: WebSocketClient) {
    client.send({ event: 'tasks', data: this.tasks.all() });
  }
}
`);
    // The fixture's routers inject TaskService too: only the gateway does once they are gone.
    writeFileSync(join(dir, 'routers', 'tasks.ts'), "export const NOTHING = 1;\n");
    const report = await analyse(dir);
    assert.deepEqual(report.warnings.filter((w) => w.code === 'unused-service'), []);
  });

  it('locates what the framework refuses at the gateway: a path without /, a message class without rules, an unprovided dependency; the others still listed', async () => {
    const dir = withFeed(`import { Injectable } from 'trellis';
import { gateway, OnMessage, type WebSocketClient } from 'trellis/websocket';

export class Loose {
  room!: string;
}

export class Mailer {}

export class Slashless extends gateway('ws/bad') {}

export class Unchecked extends gateway('/ws/unchecked') {
  @OnMessage('say')
  say(client: WebSocketClient, data: Loose) {
    return data;
  }
}

@Injectable()
export class Needy extends gateway('/ws/needy') {
  constructor(readonly mailer: Mailer) {
    super();
  }
}
`, 'bad.ts');
    const report = await analyse(dir);
    const at = (name: string) => lineOf(dir, 'routers/bad.ts', `class ${name} `);
    assert.deepEqual(findings(report.errors), [
      `routers/bad.ts:${at('Slashless')} TRELLIS_ERR_GATEWAY Invalid WebSocket gateway Slashless: its path "ws/bad" does not start with /`,
      `routers/bad.ts:${at('Unchecked')} TRELLIS_ERR_GATEWAY Invalid WebSocket gateway Unchecked: @OnMessage('say') takes Loose, which has no class-validator decorators: decorate its fields (@IsString(), ...)`,
      `routers/bad.ts:${at('Needy')} TRELLIS_ERR_UNKNOWN_DEPENDENCY Needy needs Mailer (constructor parameter 1, mailer), which is not provided: call app.provide(Mailer)`,
    ]);
    assert.deepEqual(
      report.gateways.map((g) => [g.name, g.path, g.rejected]),
      [
        ['Slashless', 'ws/bad', true],
        ['Unchecked', '/ws/unchecked', true],
        ['Needy', '/ws/needy', false],
      ],
    );
    const result = await runCli(['doctor', '.'], { cwd: dir });
    assert.equal(result.code, 1);
    assert.match(result.stdout, /\n {2}ws\/bad +Slashless +- +not included \(see the errors\) +routers\/bad\.ts:\d+\n/);
  });

  it('reports two gateways on one path at the second', async () => {
    const dir = withFeed(`import { gateway } from 'trellis/websocket';

export class First extends gateway('/ws/{name}') {}

export class Second extends gateway('/ws/{other}') {}
`, 'twins.ts');
    const report = await analyse(dir);
    assert.deepEqual(
      report.errors.map((e) => [e.file, e.line, e.code]),
      [['routers/twins.ts', lineOf(dir, 'routers/twins.ts', 'class Second'), 'TRELLIS_ERR_DUPLICATE_ROUTE']],
    );
  });

  it('reports a websockets: section that does not fit once, at its line of config.yaml', async () => {
    const dir = withFeed();
    appendFileSync(join(dir, 'config.yaml'), 'websockets:\n  max_payload: lots\n');
    const report = await analyse(dir);
    assert.deepEqual(
      report.errors.map((e) => [e.file, e.line, e.code]),
      [['config.yaml', lineOf(dir, 'config.yaml', 'max_payload'), 'config']],
    );
    assert.deepEqual(report.gateways.map((g) => g.rejected), [false, false]);
  });
});
