import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { BaseRouter, Get, router } from '../index';
import { Header, Int, Path, Query } from '../param';
import { converterFor, INVALID } from '../pipeline/convert';
import { TestClient } from '../testing';

// A regex whose work grows with the square of its input takes about 1 s on 16 KiB and most of an hour on
// 1 MiB; a linear one takes milliseconds. The timeouts below are generous for the linear case only.
const HUGE = 1024 * 1024;
const TIMEOUT = { timeout: 60_000 };

class Shop extends router('/shop') {
  @Get('/search')
  search(@Query('min_price') minPrice: number, @Query('page', { type: Int, default: 1 }) page: number) {
    return { minPrice, page };
  }

  @Get('/items/{n}') item(@Path('n') n: number, @Header('X-Count', { type: Int, default: 0 }) count: number) {
    return { n, count };
  }
}

describe('number and integer parameters are parsed in linear time', () => {
  const number = converterFor('number');
  const integer = converterFor('integer');

  it('refuses a megabyte of digits followed by a letter', TIMEOUT, () => {
    for (const text of ['1'.repeat(HUGE) + 'x', '1'.repeat(HUGE) + 'e', '.' + '1'.repeat(HUGE) + 'x',
      '1'.repeat(HUGE / 2) + '.' + '1'.repeat(HUGE / 2) + 'x', '1'.repeat(HUGE) + 'e' + '1'.repeat(HUGE) + 'x']) {
      assert.equal(number(text), INVALID);
    }
    assert.equal(integer('1'.repeat(HUGE) + 'x'), INVALID);
  });

  it('still reads every number form it read before', () => {
    const cases: Array<[string, unknown]> = [
      ['1', 1], ['-1.5', -1.5], ['+2.', 2], ['.5', 0.5], ['1e3', 1000], ['1.5E-2', 0.015], ['0012', 12],
      ['', INVALID], ['.', INVALID], ['1e', INVALID], ['e1', INVALID], ['0x10', INVALID], ['Infinity', INVALID],
      ['1_000', INVALID], [' 1', INVALID], ['1e400', INVALID], ['NaN', INVALID],
    ];
    for (const [text, expected] of cases) assert.equal(number(text), expected, JSON.stringify(text));
    assert.equal(integer('-12'), -12);
    assert.equal(integer('1.0'), INVALID);
    assert.equal(integer('9007199254740993'), INVALID);
  });

  it('answers a 16 KiB numeric-looking query, path or header value with a 422', TIMEOUT, async () => {
    const client = new TestClient(new BaseRouter().includeRouter(Shop));
    const long = '1'.repeat(16 * 1024) + 'x';
    const query = await client.get(`/shop/search?min_price=${long}&page=${long}`);
    assert.equal(query.status, 422);
    assert.deepEqual(query.json().details.map((d: { field: string }) => d.field), ['min_price', 'page']);
    // The router refuses path parameters over 100 characters (404) before any converter runs.
    assert.equal((await client.get(`/shop/items/${long.slice(-100)}`)).status, 422);
    const header = await client.get('/shop/items/1', { headers: { 'x-count': long } });
    assert.deepEqual(header.json().details, [{ location: 'header', field: 'x-count', message: 'Input should be a valid integer' }]);
  });
});

/**
 * Every regular expression literal in the shipped code of framework/ and runtime/: most see request data (paths,
 * queries, headers, bodies, cookies, field names, the access log), and a new file is audited without being listed.
 */
const root = join(__dirname, '..', '..');
const SHIPPED = ['framework', 'runtime'].flatMap((folder) =>
  readdirSync(join(root, folder), { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.split(sep).includes('tests'))
    .map((name) => join(folder, name)),
);

interface Literal { file: string; source: string; flags: string }

function regexLiterals(file: string): Literal[] {
  const found: Literal[] = [];
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText();
      const end = literal.lastIndexOf('/');
      found.push({ file, source: literal.slice(1, end), flags: literal.slice(end + 1) });
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true));
  return found;
}

// Runs of one character, then a character that makes the match fail: the classic polynomial-backtracking inputs.
// (safe-regex2's star-height check was tried: it passes the old `\d+\.?\d*` and flags any `(?:e\d+)?`.)
const RUNS = ['1', 'a', ' ', '\t', '.', ',', ', ', ';', '=', '*', '/', '%', '%2', '"', '\\', '-', ':', 'e', '{', '\u00e9'];

// The regexes run in a worker: a synchronous regex.test() cannot be interrupted, so a quadratic one would hold
// this file's process (and the whole test run) for hours. A worker that reports no progress for STALL_MS is
// terminated and the regex it was on is named. A linear regex answers all its inputs in tens of milliseconds.
const STALL_MS = 20_000;
// A quarter megabyte: a quadratic regex needs minutes on it (16 KiB took 1.5 s), a linear one milliseconds.
const AUDIT_SIZE = 256 * 1024;
const AUDIT = `
const { parentPort, workerData } = require('node:worker_threads');
const { literals, runs, size } = workerData;
for (let i = 0; i < literals.length; i++) {
  parentPort.postMessage(i);
  const regex = new RegExp(literals[i].source, literals[i].flags);
  for (const run of runs) {
    const body = run.repeat(Math.floor(size / run.length));
    for (const input of [body, body + '\\n!', '!' + body]) {
      regex.lastIndex = 0;
      regex.test(input);
    }
  }
}
parentPort.postMessage('done');
`;

function audit(literals: Literal[], stallMs = STALL_MS): Promise<Literal | undefined> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(AUDIT, { eval: true, workerData: { literals, runs: RUNS, size: AUDIT_SIZE } });
    let current = -1;
    let timer = setTimeout(stalled, stallMs);
    function stalled(): void {
      void worker.terminate();
      if (current === -1) reject(new Error(`the audit worker did not start within ${stallMs} ms`));
      else resolve(literals[current]);
    }
    worker.on('message', (message: number | 'done') => {
      clearTimeout(timer);
      if (message === 'done') {
        void worker.terminate();
        return resolve(undefined);
      }
      current = message;
      timer = setTimeout(stalled, stallMs);
    });
    worker.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

describe('regular expressions in framework/ and runtime/', () => {
  const all = SHIPPED.flatMap(regexLiterals);

  it('are found in every folder that reads requests', () => {
    assert.ok(all.some(({ source }) => source.includes('\\d+\\.\\d*')), 'the number pattern was found');
    for (const folder of ['pipeline', 'routing', 'cors', 'compression', 'rate-limit', 'uploads']) {
      assert.ok(all.some(({ file }) => file.startsWith(join('framework', folder) + sep)), folder);
    }
    assert.ok(all.some(({ file }) => file.startsWith('runtime' + sep)), 'runtime');
  });

  it('answer quarter-megabyte inputs built to make them backtrack', { timeout: 10 * 60_000 }, async () => {
    const slow = await audit(all);
    assert.equal(slow, undefined, slow && `/${slow.source}/${slow.flags} in ${slow.file} backtracks on a long run`);
  });

  it('a quadratic regex is named, not waited for (the audit itself can fail)', { timeout: 5 * 60_000 }, async () => {
    const quadratic = { file: 'example.ts', source: '\\s*,\\s*', flags: '' };
    assert.deepEqual(await audit([{ file: 'a.ts', source: '^a', flags: '' }, quadratic], 5_000), quadratic);
  });
});
