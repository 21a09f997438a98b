'use strict';
// Real processes: the apps of bench/static.js serve the same bytes for the measured requests, and the check the
// harness runs before measuring fails on a wrong answer. Not part of `npm test`.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { after, describe, it } = require('node:test');
const { pinning } = require('../lib/cpu');
const { check, writeFiles, REQUESTS } = require('../static');

const pin = { ...pinning(), pinned: false };
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-static-test-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

describe('static bench', () => {
  it('writes a 2 KiB stylesheet and a 100 KiB script', () => {
    writeFiles(work);
    assert.equal(fs.statSync(path.join(work, 'app.css')).size, 2048);
    assert.equal(fs.statSync(path.join(work, 'app.js')).size, 100 * 1024);
  });

  it('trellis and express.static answer every request with 200 and the same bytes', async () => {
    const sizes = await check(pin, { STATIC_DIR: work });
    assert.deepEqual(Object.keys(sizes), REQUESTS.map((r) => r.id));
    assert.equal(sizes['css-2k'], 2048);
    assert.equal(sizes['js-100k'], 100 * 1024);
    assert.ok(sizes['docs-css'] > 100 * 1024);
  });

  it('refuses to measure when a contender does not answer 200', async () => {
    // A folder without app.js: the first contender answers 404 and nothing is measured.
    const partial = path.join(work, 'partial');
    fs.mkdirSync(partial);
    fs.copyFileSync(path.join(work, 'app.css'), path.join(partial, 'app.css'));
    await assert.rejects(check(pin, { STATIC_DIR: partial }), /GET \/static\/app\.js answered 404/);
  });
});
