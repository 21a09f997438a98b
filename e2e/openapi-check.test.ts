import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

// bench/openapi/check.js (issue 14's "Measured" command) must not pass by accident: its checks run here on a
// document that meets every target, served by a server that keeps to it, and on a bad document and server with
// one fault of each kind the tool reports. Small node:http servers, no trellis app: the tool's verdicts alone.

interface Lint {
  errors: number;
  warnings: number;
  byRule: Record<string, number>;
  error?: string;
}
interface Report {
  typed: { typed: number; total: number; untyped: { method: string; path: string; status: string; type: string }[]; error?: string };
  redocly: Lint;
  spectral: Lint;
  contract: {
    responses: number;
    mismatchedResponses: number;
    byKind: Record<string, number>;
    mismatches: { method: string; path: string; status: number; kind: string; reason: string; request: string }[];
    notes: { kind: string }[];
    errors: string[];
  };
  verdict: { pass: boolean; failures: string[] };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { checkDocument } = require('../bench/openapi/lib/check-document') as {
  checkDocument: (doc: object, options?: { base?: string; token?: string }) => Promise<Report>;
};

const TOKEN = 'good-token';
const CHECK = join(__dirname, '..', 'bench', 'openapi', 'check.js');
const error = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] };
const json = (schema: object) => ({ 'application/json': { schema } });
const errorResponse = (description: string) => ({ description, content: json({ $ref: '#/components/schemas/Error' }) });

/** A document that meets every target, for the server `serve()` starts (good mode). */
function goodDocument(base: string) {
  const common = { '401': errorResponse('Missing or wrong token'), '422': errorResponse('Invalid parameters or body') };
  return {
    openapi: '3.1.0',
    info: { title: 'Items', version: '1.0.0', description: 'A store of items.', license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' }, contact: { name: 'Team', email: 'team@items.test' } },
    servers: [{ url: base }],
    security: [{ bearer: [] }],
    tags: [{ name: 'Item', description: 'Items.' }],
    paths: {
      '/items': {
        get: {
          operationId: 'listItems',
          summary: 'Lists items',
          description: 'Every item.',
          tags: ['Item'],
          parameters: [{ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 50, default: 10 } }],
          responses: { '200': { description: 'The items', content: json({ type: 'array', items: { $ref: '#/components/schemas/Item' } }) }, ...common },
        },
        post: {
          operationId: 'createItem',
          summary: 'Creates an item',
          description: 'Answers 201 with the item.',
          tags: ['Item'],
          requestBody: { required: true, content: json({ $ref: '#/components/schemas/ItemIn' }) },
          responses: {
            '201': { description: 'The new item', content: json({ $ref: '#/components/schemas/Item' }) },
            '400': errorResponse('Malformed JSON'),
            '415': errorResponse('Not JSON'),
            ...common,
          },
        },
      },
      '/items/{id}': {
        get: {
          operationId: 'getItem',
          summary: 'One item',
          description: 'The item with this id.',
          tags: ['Item'],
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
          responses: { '200': { description: 'The item', content: json({ $ref: '#/components/schemas/Item' }) }, '404': errorResponse('No such item'), ...common },
        },
      },
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Error: error,
        ItemIn: {
          type: 'object',
          properties: { name: { type: 'string', minLength: 1, maxLength: 20 }, qty: { type: 'integer', minimum: 1, maximum: 10 } },
          required: ['name', 'qty'],
        },
        Item: {
          type: 'object',
          properties: { id: { type: 'integer' }, name: { type: 'string' }, qty: { type: 'integer' } },
          required: ['id', 'name', 'qty'],
        },
      },
    },
  };
}

/**
 * The same API described badly: no servers, no security, success schemas `{}`, no 401/404, and paths whose
 * server answers differ from what is documented (content type, body, a required header, accepted invalid input).
 */
function badDocument() {
  const untyped = { description: 'OK', content: json({}) };
  return {
    openapi: '3.1.0',
    info: { title: 'Items', version: '1.0.0' },
    paths: {
      '/items': {
        get: { operationId: 'listItems', responses: { '200': { description: 'OK', content: json({ type: 'array', items: {} }) } } },
        post: {
          operationId: 'createItem',
          requestBody: { required: true, content: json({ $ref: '#/components/schemas/ItemIn' }) },
          responses: { '201': untyped, '422': errorResponse('Invalid') },
        },
      },
      '/items/{id}': {
        get: { operationId: 'getItem', responses: { '200': { description: 'OK', content: json({ $ref: '#/components/schemas/Item' }) } } },
      },
      '/open/items/{id}': {
        get: {
          operationId: 'getOpenItem',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: { '200': { description: 'OK', content: json({ $ref: '#/components/schemas/Item' }) }, '404': errorResponse('No such item') },
        },
      },
      '/open/items': {
        post: {
          operationId: 'createOpenItem',
          requestBody: { required: true, content: json({ $ref: '#/components/schemas/ItemIn' }) },
          responses: { '201': untyped, '422': errorResponse('Invalid'), '400': errorResponse('Malformed'), '415': errorResponse('Not JSON') },
        },
      },
      '/open/text': { get: { operationId: 'text', responses: { '200': { description: 'OK', content: json({ type: 'string' }) } } } },
      '/open/moved': {
        get: { operationId: 'moved', responses: { '307': { description: 'Moved', headers: { Location: { required: true, schema: { type: 'string' } } } } } },
      },
    },
    components: {
      schemas: {
        Error: error,
        // qty has a maximum the /open server does not enforce
        ItemIn: { type: 'object', properties: { name: { type: 'string', minLength: 1 }, qty: { type: 'integer', minimum: 1, maximum: 10 } }, required: ['name', 'qty'] },
        Item: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, qty: { type: 'integer' } }, required: ['id', 'name', 'qty'] },
      },
    },
  };
}

/** The API of both documents; `/open/...` only exists for the bad one and has the faults it describes wrongly. */
function handle(req: IncomingMessage, res: ServerResponse, items: Map<number, object>, body: string) {
  const send = (status: number, value: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(value));
  };
  const url = new URL(req.url ?? '/', 'http://x');
  const open = url.pathname.startsWith('/open/');
  if (open && url.pathname === '/open/text') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('plain');
  if (open && url.pathname === '/open/moved') return void res.writeHead(307).end();
  if (!open && req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { error: 'Missing or wrong token' }, { 'www-authenticate': 'Bearer' });
  const path = open ? url.pathname.slice('/open'.length) : url.pathname;

  if (path === '/items' && req.method === 'GET') {
    const limit = url.searchParams.get('limit') ?? '10';
    if (!/^\d+$/.test(limit) || +limit < 1 || +limit > 50) return send(422, { error: 'limit: an integer from 1 to 50' });
    return send(200, [...items.values()].slice(0, +limit));
  }
  if (path === '/items' && req.method === 'POST') {
    if (!String(req.headers['content-type']).startsWith('application/json')) return send(415, { error: 'Send JSON' });
    let input;
    try {
      input = JSON.parse(body);
    } catch {
      return send(400, { error: 'Malformed JSON' });
    }
    const nameOk = typeof input?.name === 'string' && input.name.length >= 1 && (open || input.name.length <= 20);
    const qtyOk = Number.isInteger(input?.qty) && input.qty >= 1 && (open || input.qty <= 10); // /open forgets the maximum
    if (!nameOk || !qtyOk) return send(422, { error: 'name and qty' });
    const item = { id: items.size + 1, name: input.name, qty: input.qty };
    items.set(item.id, item);
    return send(201, item);
  }
  const match = /^\/items\/([^/]+)$/.exec(path);
  if (match && req.method === 'GET') {
    if (!/^\d+$/.test(match[1]) || +match[1] < 1) return send(422, { error: 'id: a positive integer' });
    const item = items.get(+match[1]);
    if (!item) return send(404, { error: 'No such item' });
    return send(200, open ? { id: +match[1] } : item); // /open leaves out name and qty
  }
  send(404, { error: 'Not found' });
}

async function serve(): Promise<{ base: string; server: Server }> {
  const items = new Map<number, object>([[1, { id: 1, name: 'first', qty: 1 }]]);
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => handle(req, res, items, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

function runCheck(args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CHECK, ...args], { timeout: 60_000 }, (failure, stdout) => {
      resolve({ code: failure ? Number(failure.code ?? 1) : 0, stdout });
    });
  });
}

describe('bench/openapi/check.js verdicts', () => {
  let good: { base: string; server: Server };
  let bad: { base: string; server: Server };
  before(async () => {
    good = await serve();
    bad = await serve();
  });
  after(() => {
    good.server.close();
    bad.server.close();
  });

  it('a document that meets every target, with a server that keeps to it, passes every check', async () => {
    const report = await checkDocument(goodDocument(good.base), { base: good.base, token: TOKEN });
    assert.deepEqual({ typed: report.typed.typed, total: report.typed.total, error: report.typed.error }, { typed: 3, total: 3, error: undefined });
    assert.equal(report.redocly.error, undefined);
    assert.deepEqual(report.redocly.byRule, {}, 'Redocly recommended finds nothing');
    assert.equal(report.spectral.errors, 0);
    assert.deepEqual(report.contract.mismatches, []);
    assert.deepEqual(report.contract.errors, []);
    // valid and invalid requests were generated and each answered as documented (401, 415, 400, 422, 404 included)
    assert.ok(report.contract.responses >= 30, `${report.contract.responses} responses`);
    assert.deepEqual(report.contract.notes, []);
    assert.deepEqual(report.verdict, { pass: true, failures: [] });
  });

  it('a bad document and a server that strays from it are caught by every check, each fault by its kind', async () => {
    const report = await checkDocument(badDocument(), { base: bad.base, token: TOKEN });
    assert.equal(report.typed.total, 6);
    assert.deepEqual(
      report.typed.untyped.map((u) => `${u.method} ${u.path} ${u.status} ${u.type}`),
      ['GET /items 200 unknown[]', 'POST /items 201 unknown', 'POST /open/items 201 unknown'],
    );
    assert.equal(report.redocly.byRule['error no-empty-servers'], 1);
    assert.equal(report.redocly.byRule['error security-defined'], 7);
    assert.equal(report.redocly.byRule['error path-parameters-defined'], 1, '/items/{id} declares no id parameter');
    assert.equal(report.spectral.byRule['error path-params'], 1);

    const lines = report.contract.mismatches.map((m) => `${m.method} ${m.path} ${m.status} ${m.kind}`);
    const has = (line: string) => assert.ok(lines.includes(line), `${line} in\n${lines.join('\n')}`);
    has('GET /items 401 status'); // no security declared, so no token sent
    has('POST /items 401 status');
    has('GET /open/items/{id} 200 body'); // name and qty missing
    has('GET /open/text 200 content-type'); // text/plain, documented application/json
    has('GET /open/moved 307 header'); // Location documented as required
    has('POST /open/items 201 accepted-invalid'); // qty above the documented maximum accepted
    const accepted = report.contract.mismatches.filter((m) => m.kind === 'accepted-invalid');
    assert.deepEqual(accepted.map((m) => m.request), ['body qty=11 (above maximum 10)']);
    assert.ok(report.contract.mismatchedResponses > 0 && report.contract.mismatchedResponses < report.contract.responses);
    assert.equal(report.verdict.pass, false);
    assert.equal(report.verdict.failures.length, 4, report.verdict.failures.join('\n'));
  });

  it('the command: --document --strict exits 1 on the bad document and 0 on the good one; --json gives the report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-check-'));
    try {
      writeFileSync(join(dir, 'bad.json'), JSON.stringify(badDocument()));
      writeFileSync(join(dir, 'good.json'), JSON.stringify(goodDocument(good.base)));
      // one after the other: each process loads openapi-typescript, Redocly and Spectral (seconds of I/O)
      const failing = await runCheck(['--document', join(dir, 'bad.json'), '--strict', '--json']);
      const passing = await runCheck(['--document', join(dir, 'good.json'), '--base', good.base, '--token', TOKEN, '--strict']);
      assert.equal(failing.code, 1);
      const report = JSON.parse(failing.stdout) as Report & { contract?: unknown };
      assert.equal(report.contract, undefined, 'no contract run without --base');
      assert.equal(report.redocly.byRule['error security-defined'], 7);
      assert.equal(passing.code, 0, passing.stdout);
      assert.match(passing.stdout, /openapi-typescript: 3 of 3 success responses typed \(100 %\)/);
      assert.match(passing.stdout, /verdict: every target met/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
