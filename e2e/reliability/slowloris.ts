import { connect, type Socket } from 'node:net';
import { Agent } from 'node:http';
import { percentile, send } from './load';
import type { RunningApp } from '../support/sample-server';

export interface SlowlorisFigures {
  sockets: number;
  baselineP99: number;
  underAttackP99: number;
  allClosed: boolean;
  secondsToCloseAll: number;
}

async function latencies(port: number, count: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push((await send(port, agent, { method: 'GET', path: '/tasks/1', malformed: false })).ms);
  agent.destroy();
  return out;
}

/** `count` sockets trickle header bytes; a normal client's p99 is compared with its baseline. */
export async function slowloris(app: RunningApp, count = 500, limitSeconds = 40): Promise<SlowlorisFigures> {
  const baseline = await latencies(app.port, 300);
  const started = performance.now();
  let open = 0;
  let lastClosed = 0;
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i++) {
    const socket = connect(app.port, '127.0.0.1');
    open++;
    socket.on('error', () => {});
    socket.on('close', () => {
      open--;
      lastClosed = performance.now();
    });
    socket.write(`GET /tasks/1 HTTP/1.1\r\nHost: x\r\n`);
    sockets.push(socket);
  }
  const trickle = setInterval(() => {
    for (const socket of sockets) if (!socket.destroyed) socket.write(`X-${Math.random().toString(36).slice(2, 6)}: a\r\n`);
  }, 1_000);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const underAttack = await latencies(app.port, 300);
  while (open > 0 && performance.now() - started < limitSeconds * 1000) await new Promise((resolve) => setTimeout(resolve, 250));
  clearInterval(trickle);
  const allClosed = open === 0;
  for (const socket of sockets) socket.destroy();
  return {
    sockets: count,
    baselineP99: percentile(baseline, 99),
    underAttackP99: percentile(underAttack, 99),
    allClosed,
    secondsToCloseAll: ((allClosed ? lastClosed : performance.now()) - started) / 1000,
  };
}
