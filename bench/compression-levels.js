#!/usr/bin/env node
'use strict';
// CPU per compression of a 20 KB JSON answer at each gzip level and brotli quality, single-threaded, in-process:
// what the compression plug-in's defaults (framework/compression/settings.ts) were chosen by.
//
//   node bench/compression-levels.js            # markdown tables on stdout; a few seconds
//   node bench/compression-levels.js --ms 300   # time spent per run of a cell (default 100 ms, 3 runs)
//
// Table 1: zlib's synchronous functions on the body (as the plug-in compresses a body of a known size), µs per
// compression (median of 3 runs of --ms each) and the compressed size. Table 2: the sync cut-off: for bodies of
// 4 KB to 256 KB at the default levels (gzip 6, brotli 4), the synchronous call's µs (the event loop is blocked that long) against the
// same compression through a zlib stream (its work on the libuv threadpool: µs of wall time per compression, one
// at a time), which the plug-in uses above the cut-off.
const zlib = require('node:zlib');
const { pipeline } = require('node:stream/promises');
const { Readable, Writable } = require('node:stream');

const argMs = process.argv.indexOf('--ms');
const MS = argMs > 0 ? Number(process.argv[argMs + 1]) : 100;

/** A JSON array of tasks, as an API answers a list: `bytes` long or just over. */
function jsonBody(bytes) {
  const tasks = [];
  const words = ['deploy', 'review', 'billing', 'report', 'customer', 'urgent', 'backend', 'release', 'invoice', 'migrate'];
  let length = 2;
  for (let id = 1; length < bytes; id++) {
    const task = {
      id,
      title: `${words[id % 10]} ${words[(id * 7) % 10]} #${id}`,
      done: id % 3 === 0,
      priority: ['low', 'normal', 'high'][id % 3],
      owner: { id: (id * 37) % 101, name: `user${(id * 37) % 101}` },
      tags: [words[(id * 3) % 10], words[(id * 5) % 10]],
      createdAt: new Date(Date.UTC(2026, 0, 1) + id * 3_600_000).toISOString(),
    };
    length += JSON.stringify(task).length + 1;
    tasks.push(task);
  }
  return Buffer.from(JSON.stringify(tasks));
}

/** Median µs per call of `fn` over 3 runs of MS milliseconds. */
function timeSync(fn) {
  for (let i = 0; i < 3; i++) fn();
  const runs = [];
  for (let run = 0; run < 3; run++) {
    let count = 0;
    const start = process.hrtime.bigint();
    const until = start + BigInt(MS) * 1_000_000n;
    let now = start;
    while (now < until) {
      fn();
      count++;
      now = process.hrtime.bigint();
    }
    runs.push(Number(now - start) / 1000 / count);
  }
  return runs.sort((a, b) => a - b)[1];
}

/** Median µs of wall time per compression through a zlib stream, one after another. */
async function timeStream(make, body) {
  const once = () => pipeline(Readable.from([body]), make(), new Writable({ write: (_chunk, _encoding, done) => done() }));
  for (let i = 0; i < 3; i++) await once();
  const runs = [];
  for (let run = 0; run < 3; run++) {
    let count = 0;
    const start = process.hrtime.bigint();
    const until = start + BigInt(MS) * 1_000_000n;
    let now = start;
    while (now < until) {
      await once();
      count++;
      now = process.hrtime.bigint();
    }
    runs.push(Number(now - start) / 1000 / count);
  }
  return runs.sort((a, b) => a - b)[1];
}

const gzipWith = (level) => (body) => zlib.gzipSync(body, { level });
const brotliWith = (quality) => (body) =>
  zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } });

async function main() {
  const body = jsonBody(20 * 1024);
  console.log(`# Compression of a ${body.length}-byte JSON body (node ${process.version}, one thread)\n`);
  console.log('| encoding | level | µs per compression | compressed bytes | ratio |');
  console.log('| --- | --- | ---: | ---: | ---: |');
  const rows = [
    ...[1, 4, 6, 9].map((level) => ['gzip', level, gzipWith(level)]),
    ...[1, 4, 5, 6, 11].map((quality) => ['br', quality, brotliWith(quality)]),
  ];
  for (const [name, level, compress] of rows) {
    const size = compress(body).length;
    const us = timeSync(() => compress(body));
    console.log(`| ${name} | ${level} | ${us.toFixed(1)} | ${size} | ${(body.length / size).toFixed(1)}x |`);
  }

  console.log('\n# Synchronous call against a zlib stream, by body size (the defaults: gzip level 6, brotli quality 4)\n');
  console.log('| body | gzip sync µs | gzip stream µs | br sync µs | br stream µs |');
  console.log('| ---: | ---: | ---: | ---: | ---: |');
  for (const kb of [4, 16, 64, 256]) {
    const sized = jsonBody(kb * 1024);
    const gzipSync = timeSync(() => gzipWith(6)(sized));
    const gzipStream = await timeStream(() => zlib.createGzip({ level: 6 }), sized);
    const brSync = timeSync(() => brotliWith(4)(sized));
    const brStream = await timeStream(() => zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }), sized);
    console.log(`| ${kb} KB | ${gzipSync.toFixed(1)} | ${gzipStream.toFixed(1)} | ${brSync.toFixed(1)} | ${brStream.toFixed(1)} |`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
