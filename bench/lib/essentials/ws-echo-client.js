'use strict';
// The WebSocket echo load (bench/essentials.js runs it pinned to the load core, as wrk is for HTTP):
//   node ws-echo-client.js PORT PATH CONNECTIONS SECONDS [HEADERS]
// opens CONNECTIONS sockets (HEADERS, a JSON object, sent on each upgrade: the guarded echo's Authorization), then
// for SECONDS each sends {"event":"echo","data":...} and the next one as soon as the echo arrives (one message in flight per connection, like wrk's connections). Prints one JSON line:
// { roundTrips, seconds, p50, p99 (ms), wrong (answers other than the echo), closed (sockets the server closed) }.
const { openSocket } = require('./answer');

const MESSAGE = JSON.stringify({ event: 'echo', data: { text: 'hello', n: 1 } });
const EXPECTED = JSON.stringify({ event: 'echo', data: { text: 'hello', n: 1 } });

/** The value below which `fraction` of the sorted `values` lie. */
const percentile = (values, fraction) => (values.length ? values[Math.min(values.length - 1, Math.floor(values.length * fraction))] : NaN);

/**
 * Runs the load against `ws://127.0.0.1:port/path` (`headers` on each upgrade); resolves to its summary.
 * @param {{ port: number, path: string, connections: number, seconds: number, headers?: Record<string, string> }} run
 */
async function echoLoad({ port, path, connections, seconds, headers }) {
  const sockets = [];
  // In batches, so the server's accept backlog never overflows.
  for (let i = 0; i < connections; i += 50) {
    sockets.push(...(await Promise.all(Array.from({ length: Math.min(50, connections - i) }, () => openSocket(port, path, 10_000, headers)))));
  }
  const latencies = [];
  let wrong = 0;
  let closed = 0;
  let running = true;
  const started = process.hrtime.bigint();
  const ends = sockets.map(
    (socket) =>
      new Promise((resolve) => {
        let sent = process.hrtime.bigint();
        const send = () => {
          sent = process.hrtime.bigint();
          socket.send(MESSAGE);
        };
        socket.on('message', (data) => {
          latencies.push(Number(process.hrtime.bigint() - sent) / 1e6);
          if (String(data) !== EXPECTED) wrong++;
          if (running) send();
          else resolve(undefined);
        });
        socket.once('close', () => {
          if (running) closed++;
          resolve(undefined);
        });
        send();
      }),
  );
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  running = false;
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  const roundTrips = latencies.length;
  await Promise.race([Promise.all(ends), new Promise((resolve) => setTimeout(resolve, 5000))]);
  for (const socket of sockets) socket.terminate();
  latencies.sort((a, b) => a - b);
  return { roundTrips, seconds: elapsed, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), wrong, closed };
}

if (require.main === module) {
  const [port, path, connections, seconds, headers] = process.argv.slice(2);
  echoLoad({ port: Number(port), path, connections: Number(connections), seconds: Number(seconds), headers: headers ? JSON.parse(headers) : undefined }).then(
    (summary) => console.log(JSON.stringify(summary)),
    (error) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exitCode = 1;
    },
  );
}

module.exports = { echoLoad, MESSAGE, EXPECTED };
