'use strict';
// Memory: RSS of a fresh idle server; after a warm-up of half as many requests as measured (heap sizing,
// JIT code and socket buffers grow there, by 30-40 MB even for raw node:http); and after the measured
// requests. All requests cycle over the four endpoints. Growth = after - after warm-up: what they retained.
const { memoryOf } = require('../proc');
const { startServer } = require('../server');
const { runWrkUntil } = require('../wrk');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves to `{ [contenderId]: { idleMB, warmMB, afterMB, growthMB, growthFromIdleMB, peakMB, seconds } }`. */
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
      const { seconds } = await load(mixScripts.measured);
      const after = memoryOf(server.pid);
      out[contender.id] = {
        idleMB: idle.rssMB,
        warmMB: warm.rssMB,
        afterMB: after.rssMB,
        growthMB: after.rssMB - warm.rssMB,
        growthFromIdleMB: after.rssMB - idle.rssMB,
        peakMB: after.peakMB,
        seconds,
      };
      log(
        `  ${contender.id.padEnd(20)} idle ${idle.rssMB.toFixed(1)} MB, warm ${warm.rssMB.toFixed(1)} MB, ` +
          `after ${settings.memoryRequests.toLocaleString('en-US')} more requests ${after.rssMB.toFixed(1)} MB (${seconds.toFixed(1)} s)`,
      );
    } finally {
      await server.stop();
    }
  }
  return out;
}

module.exports = { runMemory };
