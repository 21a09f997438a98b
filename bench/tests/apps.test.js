'use strict';
// Real processes: every peer app answers the four benchmark requests correctly (the check the harness
// runs before measuring), and the generated-routes app serves its middle route. Not part of `npm test`.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { after, describe, it } = require('node:test');
const { contenders, expressUnder } = require('../lib/contenders');
const { pinning } = require('../lib/cpu');
const { writeWrkScripts, writeMixScript } = require('../lib/endpoints');
const { generateRoutes } = require('../lib/generate-routes');
const { request } = require('../lib/http-get');
const { parseOptions } = require('../lib/options');
const { checkContender } = require('../lib/phases/check');
const { startServer } = require('../lib/server');

const pin = { ...pinning(), pinned: false };
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-bench-test-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

describe('contender apps', () => {
  for (const contender of contenders()) {
    it(`${contender.id} answers the four requests as expected`, async () => {
      assert.deepEqual(await checkContender(contender, pin), []);
    });
  }

  it('routing-controllers runs on the Express 5 its label names, not the Express 4 it lists as optional', () => {
    const version = expressUnder('routing-controllers');
    assert.match(version, /^5\./);
    const label = contenders().find((contender) => contender.id === 'routing-controllers').label;
    assert.ok(label.endsWith(`(Express ${version})`), label);
  });

  it('a wrong answer is reported with its status and body', async () => {
    const broken = { id: 'broken', command: (port) => [process.execPath, '-e', brokenServer(port)] };
    const problems = await checkContender(broken, pin);
    assert.equal(problems.length, 4);
    assert.match(problems[0], /^GET \/tasks\/1: got 200 \{"id":2\}$/);
  });
});

describe('the like-for-like Fastify contender', () => {
  it('sends the request id and nosniff headers trellis sends, on a 200, a 404 and a 400; bare Fastify sends neither', async () => {
    const all = contenders();
    const seen = {};
    for (const id of ['trellis', 'fastify-headers', 'fastify']) {
      const server = await startServer(all.find((c) => c.id === id), pin);
      try {
        const answers = [
          await request(server.port, { path: '/tasks/1' }),
          await request(server.port, { path: '/tasks/999' }),
          await request(server.port, { method: 'POST', path: '/tasks', body: { title: '' } }),
        ];
        seen[id] = answers.map((a) => [a.status >= 400, typeof a.headers['x-request-id'] === 'string' && a.headers['x-request-id'] !== '', a.headers['x-content-type-options']]);
      } finally {
        await server.stop();
      }
    }
    assert.deepEqual(seen.trellis, [[false, true, 'nosniff'], [true, true, 'nosniff'], [true, true, 'nosniff']]);
    assert.deepEqual(seen['fastify-headers'], seen.trellis);
    assert.deepEqual(seen.fastify, [[false, false, undefined], [true, false, undefined], [true, false, undefined]]);
  });
});

// Answers every request with {"id":2} (status 200), so every check fails.
const brokenServer = (port) =>
  `require('node:http').createServer((q, s) => { q.resume(); q.on('end', () => s.end('{"id":2}')); }).listen(${port}, '127.0.0.1')`;

describe('route-count scaling app', () => {
  it('serves the middle route of 100 generated routes and 404 past the last router', async () => {
    const dir = path.join(work, 'routes');
    const middle = generateRoutes(dir, 100);
    assert.equal(middle, '/resource5/7');
    assert.equal(fs.readdirSync(dir).length, 10);
    const scaling = { id: 'scaling', command: () => [process.execPath, '-r', './register.js', 'bench/apps/trellis-routes.ts'], env: { ROUTES_DIR: dir } };
    const server = await startServer(scaling, pin, { readyPath: middle });
    try {
      assert.deepEqual((await request(server.port, { path: middle })).json, { resource: 5, id: 7 });
      assert.deepEqual((await request(server.port, { path: '/resource9/3/items/4' })).json, { resource: 9, id: 3, itemId: 4 });
      assert.equal((await request(server.port, { path: '/resource10/7' })).status, 404);
    } finally {
      await server.stop();
    }
  });
});

describe('wrk scripts and options', () => {
  it('writes a script per endpoint with the JSON body, and a mix script that exits after N answers', () => {
    const files = writeWrkScripts(work);
    assert.equal(
      fs.readFileSync(files['post-invalid'], 'utf8'),
      'wrk.method = "POST"\nwrk.path = "/tasks"\nwrk.body = "{\\"title\\":\\"\\",\\"completed\\":\\"yes\\"}"\n' +
        'wrk.headers["Content-Type"] = "application/json"\n',
    );
    const mix = fs.readFileSync(writeMixScript(work, 1234), 'utf8');
    assert.match(mix, /wrk\.format\("GET", "\/products\/search\?q=x&page=2&min_price=1\.5", nil, nil\)/);
    assert.match(mix, /if received >= 1234 then os\.exit\(0\) end/);
  });

  it('parses --quick, --only and --out, and rejects unknown flags', () => {
    const quick = parseOptions(['--quick', '--only', 'raw, trellis']);
    assert.equal(quick.settings.repetitions, 1);
    assert.deepEqual(quick.only, ['raw', 'trellis']);
    assert.match(quick.out, /bench[/\\]\.quick$/);
    assert.equal(parseOptions([]).settings.repetitions, 5);
    assert.throws(() => parseOptions(['--fast']), /unknown option --fast/);
    assert.throws(() => parseOptions(['--only']), /--only needs a value/);
  });
});
