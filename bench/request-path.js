#!/usr/bin/env node
'use strict';
// Files and functions one warmed request enters, in trellis and in Fastify, counted with V8's precise coverage:
// the server runs in a child process with `Profiler.startPreciseCoverage({ callCount: true, detailed: true })` on
// from before its app loads; this process warms it over a real socket (http.request to 127.0.0.1, one keep-alive
// connection), then for each measured request has the child take (and so reset) its coverage, sends the one
// request, and has the child take it again: a function counts when its call count is above 0.
//
//   node bench/request-path.js [dir] [--list] [--warm N]
//
// dir: the trellis checkout to measure (this one by default; its register.js resolves `trellis`); Fastify comes
// from bench/node_modules. --list prints each file entered with its functions. Own code is the framework's
// (dir/framework/, dir/runtime/) and Fastify's (node_modules/fastify/); libraries are the other node_modules;
// generated code (new Function: compiled validators and serializers) has no file; node core is Node's own.
// trellis's TypeScript runs as swc's CommonJS, where reading an imported binding calls a getter the compiler wrote
// (`get: function() { return settle; }`): those are counted apart, as "export getters", not as own functions.
const http = require('node:http');
const { fork } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join, resolve, sep } = require('node:path');
const { fileURLToPath } = require('node:url');

const APPS = join(__dirname, 'request-path');
const REQUESTS = [
  { label: 'GET /tasks/1', method: 'GET', path: '/tasks/1', status: 200 },
  { label: 'POST /tasks (validated)', method: 'POST', path: '/tasks', status: 201, body: { title: 'Write the docs', description: 'guide and reference', completed: false } },
];

if (process.argv[2] === '--serve') serve(process.argv[3]);
else main().catch((error) => {
  console.error(error);
  process.exit(1);
});

/** The child: coverage on, the app loaded and listening, then `reset`/`take` on request from the parent. */
async function serve(appFile) {
  const inspector = require('node:inspector');
  const session = new inspector.Session();
  session.connect();
  const post = (method, params) => new Promise((ok, fail) => session.post(method, params, (error, result) => (error ? fail(error) : ok(result))));
  await post('Profiler.enable');
  await post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  const port = await require(appFile).serve();
  // The source of each script, for telling the CommonJS export getters swc writes (`get: function() { return x; }`)
  // from the framework's own functions.
  await post('Debugger.enable');
  const exportGetter = async (script, fn) => {
    const named = /^get ([\w$]+)$/.exec(fn.functionName);
    if (fn.functionName !== 'get' && !named) return false;
    const { scriptSource } = await post('Debugger.getScriptSource', { scriptId: script.scriptId });
    const body = /^(?:function\s*|get\s+[\w$]+\s*|[\w$]+\s*)\(\)\s*\{\s*return ([\w$]+);?\s*\}$/.exec(scriptSource.slice(fn.ranges[0].startOffset, fn.ranges[0].endOffset));
    // `get: function() { return settle; }` (one export) or `get settle () { return settle; }` (several).
    return body !== null && (named === null || named[1] === body[1]);
  };
  process.on('message', async (message) => {
    const { result } = await post('Profiler.takePreciseCoverage');
    if (message === 'reset') return process.send?.({ reset: true });
    const entered = [];
    for (const script of result) {
      for (const fn of script.functions.filter((candidate) => candidate.ranges[0].count > 0)) {
        entered.push({ url: script.url, name: fn.functionName || '(anonymous)', count: fn.ranges[0].count, exportGetter: await exportGetter(script, fn) });
      }
    }
    process.send?.({ entered });
  });
  process.send?.({ port });
}

function parse(argv) {
  const options = { dir: join(__dirname, '..'), list: false, warm: 300 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--list') options.list = true;
    else if (argv[i] === '--warm') options.warm = Number(argv[++i]);
    else if (!argv[i].startsWith('--')) options.dir = resolve(argv[i]);
    else throw new Error(`unknown option ${argv[i]} (dir, --list, --warm N)`);
  }
  return options;
}

async function main() {
  const options = parse(process.argv.slice(2));
  const fastifyRoot = join(__dirname, 'node_modules', 'fastify') + sep;
  if (!existsSync(fastifyRoot)) throw new Error('bench/node_modules/fastify is missing: npm install --prefix bench');
  const contenders = [
    {
      name: 'trellis',
      app: join(APPS, 'trellis-app.ts'),
      execArgv: ['--require', join(options.dir, 'register.js')],
      cwd: options.dir,
      own: (file) => [join(options.dir, 'framework') + sep, join(options.dir, 'runtime') + sep].some((root) => file.startsWith(root)),
    },
    {
      name: 'fastify',
      app: join(APPS, 'fastify-app.js'),
      execArgv: [],
      cwd: __dirname,
      own: (file) => file.startsWith(fastifyRoot) && !file.slice(fastifyRoot.length).includes(`node_modules${sep}`),
    },
  ];
  console.log(`request path in ${options.dir}: one request after ${options.warm} warming requests of each kind, over a real socket`);
  console.log('(V8 precise coverage, callCount: functions with a count above 0, and the files holding them)');
  console.log('');
  const head = ['contender', 'request', 'own files', 'own functions', 'export getters', 'library files', 'library functions', 'generated functions', 'node core functions'];
  const rows = [];
  const listings = [];
  for (const contender of contenders) {
    for (const [request, entered] of await measure(contender, options.warm)) {
      const getters = entered.filter((fn) => fn.exportGetter && contender.own(fn.file));
      const own = entered.filter((fn) => !fn.exportGetter && contender.own(fn.file));
      const library = entered.filter((fn) => !contender.own(fn.file) && fn.file.includes(`${sep}node_modules${sep}`));
      const files = (fns) => new Set(fns.map((fn) => fn.file)).size;
      rows.push([
        contender.name,
        request.label,
        files(own),
        own.length,
        getters.length,
        files(library),
        library.length,
        entered.filter((fn) => fn.file === '').length,
        entered.filter((fn) => fn.file.startsWith('node:')).length,
      ]);
      if (options.list) listings.push({ title: `${contender.name} ${request.label}`, own, library });
    }
  }
  const widths = head.map((title, i) => Math.max(title.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) => `| ${cells.map((cell, i) => (i < 2 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]))).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((width, i) => (i < 2 ? '-'.repeat(width + 2) : `${'-'.repeat(width + 1)}:`)).join('|')}|`);
  for (const row of rows) console.log(line(row));
  for (const { title, own, library } of listings) {
    console.log('');
    console.log(`${title}:`);
    for (const group of [own, library]) {
      const byFile = new Map();
      for (const fn of group) byFile.set(fn.file, [...(byFile.get(fn.file) ?? []), fn.name]);
      for (const [file, names] of byFile) console.log(`  ${file.replace(options.dir + sep, '').replace(__dirname + sep, 'bench/')}: ${names.join(', ')}`);
    }
  }
}

/** Runs `contender`'s server, warms it, and gives each request's entered functions ({ file, name, count }). */
async function measure(contender, warm) {
  const child = fork(__filename, ['--serve', contender.app], { cwd: contender.cwd, execArgv: contender.execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const replies = [];
  let waiting;
  child.on('message', (message) => (waiting ? (waiting(message), (waiting = undefined)) : replies.push(message)));
  const reply = () => (replies.length > 0 ? Promise.resolve(replies.shift()) : new Promise((ok) => (waiting = ok)));
  const exited = new Promise((_, fail) => child.once('exit', (code) => fail(new Error(`${contender.name}'s server exited (${code})`))));
  exited.catch(() => {});
  try {
    const { port } = await Promise.race([reply(), exited]);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < warm; i++) for (const request of REQUESTS) await send(port, agent, request);
    const measured = [];
    for (const request of REQUESTS) {
      child.send('reset');
      await Promise.race([reply(), exited]);
      await send(port, agent, request);
      // Let the server finish the response (its 'finish' callbacks) before the coverage is taken.
      await new Promise((done) => setTimeout(() => done(undefined), 50));
      child.send('take');
      const { entered } = await Promise.race([reply(), exited]);
      measured.push([request, entered.map((fn) => ({ ...fn, file: fn.url.startsWith('file:') ? fileURLToPath(fn.url) : fn.url }))]);
    }
    agent.destroy();
    return measured;
  } finally {
    child.kill();
  }
}

/**
 * One request; rejects unless the status is the expected one.
 * @param {number} port
 * @param {http.Agent} agent
 * @param {{ method: string, path: string, status: number, body?: unknown }} request
 */
function send(port, agent, { method, path, status, body }) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers = payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) };
  return new Promise((ok, fail) => {
    const request = http.request({ host: '127.0.0.1', port, method, path, agent, headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () =>
        response.statusCode === status ? ok(undefined) : fail(new Error(`${method} ${path}: ${response.statusCode} ${Buffer.concat(chunks).toString()}`)),
      );
    });
    request.on('error', fail);
    request.end(payload);
  });
}
