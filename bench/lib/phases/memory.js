'use strict';
// Memory: RSS of a fresh idle server; after a warm-up of half as many requests as measured (heap sizing,
// JIT code and socket buffers grow there, by 30-40 MB even for raw node:http); and after each tenth of the
// measured requests. All requests cycle over the four endpoints. Growth = after - after warm-up: what they
// retained. A single reading lands anywhere in the garbage collector's cycle (the same app measured +7 and
// +28 MB in one run), so the trend, the least-squares slope of the ten readings times the requests, is the
// steadier figure of what requests retain.
const { memoryOf } = require('../proc');
const { startServer } = require('../server');
const { runWrkUntil } = require('../wrk');
const { slope } = require('../stats');

const CHUNKS = 10;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves to `{ [contenderId]: { idleMB, warmMB, afterMB, growthMB, trendMB, growthFromIdleMB, peakMB, seconds } }`. */
async function runMemory(contenders, { pin, settings, mixScripts, log }) {
  const out = {};
  for (const contender of contenders) {
    const server = await startServer(contender, pin);
    try {
      const load = (script) => runWrkUntil(pin, { port: server.port, script, connections: settings.connections, maxSeconds: 300 });
      await sleep(1000);
      const idle = memoryOf(server.pid);
      await load(mixScripts.warmup);
      const warm = memoryOf(server.pid);
      const done = [];
      const readings = [];
      let seconds = 0;
      for (let chunk = 1; chunk <= CHUNKS; chunk++) {
        seconds += (await load(mixScripts.chunk)).seconds;
        done.push((chunk * settings.memoryRequests) / CHUNKS);
        readings.push(memoryOf(server.pid).rssMB);
      }
      const after = memoryOf(server.pid);
      out[contender.id] = {
        idleMB: idle.rssMB,
        warmMB: warm.rssMB,
        afterMB: after.rssMB,
        growthMB: after.rssMB - warm.rssMB,
        trendMB: slope(done, readings) * settings.memoryRequests,
        growthFromIdleMB: after.rssMB - idle.rssMB,
        peakMB: after.peakMB,
        seconds,
      };
      log(
        `  ${contender.id.padEnd(20)} idle ${idle.rssMB.toFixed(1)} MB, warm ${warm.rssMB.toFixed(1)} MB, ` +
          `after ${settings.memoryRequests.toLocaleString('en-US')} more requests ${after.rssMB.toFixed(1)} MB, ` +
          `trend ${out[contender.id].trendMB.toFixed(1)} MB (${seconds.toFixed(1)} s)`,
      );
    } finally {
      await server.stop();
    }
  }
  return out;
}

module.exports = { runMemory };
