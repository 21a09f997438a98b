import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { appInternals } from '../app';
import { BaseRouter } from '../index';
import { clearMemoryCache } from '../source/types/cache';
import { readSourceTypes } from '../source/types/read';
import { methodTypes, type TypeTable } from '../source/types/table';
import { ResponseRouter, TypedRouter } from './fixtures/source-types/routers';

const FIXTURE = join(__dirname, 'fixtures', 'source-types', 'routers.ts');
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object, status?: number) => ({ kind: 'json', schema, ...(status ? { status } : {}) });
const errorBody = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] };

const temporary: string[] = [];
after(() => temporary.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-types-'));
  temporary.push(dir);
  return dir;
}

describe('readSourceTypes: return types as response shapes', () => {
  const table = readSourceTypes([FIXTURE], { cacheDir: false })!;
  const returns = (key: string) => table.files[FIXTURE][key]?.returns;

  it('reads interfaces, aliases, classes and enums as named components', () => {
    assert.deepEqual(returns('TypedRouter.one'), json(ref('Task')));
    assert.deepEqual(returns('TypedRouter.later'), json(ref('Task')), 'Promise<Task> unwrapped');
    assert.deepEqual(returns('TypedRouter.owner'), json(ref('Owner')));
    assert.deepEqual(returns('TypedRouter.user'), json(ref('UserOut')));
    assert.deepEqual(returns('TypedRouter.status'), json(ref('TaskStatus')));
    assert.deepEqual(table.schemas.TaskStatus, { type: 'string', enum: ['open', 'done'] });
    assert.deepEqual(table.schemas.UserOut, {
      type: 'object',
      properties: { id: { type: 'number' }, name: { type: 'string' } },
      required: ['id', 'name'],
    }, 'methods are no properties');
  });

  it('writes nested types, Date, literal unions, optional and nullable properties', () => {
    assert.deepEqual(table.schemas.Task, {
      type: 'object',
      properties: {
        id: { type: 'number' },
        title: { type: 'string' },
        created: { type: 'string', format: 'date-time', description: 'When it was made.' },
        status: ref('TaskStatus'),
        priority: { type: 'string', enum: ['low', 'high'] },
        tags: { type: 'array', items: { type: 'string' } },
        owner: { anyOf: [ref('Owner'), { type: 'null' }] },
      },
      required: ['id', 'title', 'created', 'status', 'priority', 'owner'],
      description: 'A task.',
    });
    assert.deepEqual(table.schemas.Owner, { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string' } }, required: ['name', 'email'] });
  });

  it('reads arrays, unions with null or undefined, literals, Date and Record', () => {
    assert.deepEqual(returns('TypedRouter.list'), json({ type: 'array', items: ref('Task') }));
    assert.deepEqual(returns('TypedRouter.maybe'), json({ anyOf: [ref('Task'), { type: 'null' }] }));
    assert.deepEqual(returns('TypedRouter.optional'), json(ref('Task')), 'undefined is no JSON value');
    assert.deepEqual(returns('TypedRouter.level'), json({ type: 'string', enum: ['low', 'high'] }));
    assert.deepEqual(returns('TypedRouter.when'), json({ type: 'string', format: 'date-time' }));
    assert.deepEqual(returns('TypedRouter.counts'), json({ type: 'object', additionalProperties: ref('Task') }));
  });

  it('names generic instances with component-safe names', () => {
    assert.deepEqual(returns('TypedRouter.page'), json(ref('Page_Task')));
    assert.deepEqual(table.schemas.Page_Task, {
      type: 'object',
      properties: { items: { type: 'array', items: ref('Task') }, total: { type: 'number' } },
      required: ['items', 'total'],
    });
    assert.deepEqual(returns('TypedRouter.nested'), json({
      type: 'object',
      properties: { page: ref('Page_Owner'), meta: { type: 'object', properties: { count: { type: 'number' } }, required: ['count'] } },
      required: ['page', 'meta'],
    }));
    for (const name of Object.keys(table.schemas)) assert.match(name, /^[A-Za-z0-9._-]+$/);
  });

  it('reads the inferred return type of a handler without an annotation', () => {
    assert.deepEqual(returns('TypedRouter.inferred'), json({
      type: 'object',
      properties: { tasks: { type: 'number' }, names: { type: 'array', items: { type: 'string' } } },
      required: ['tasks', 'names'],
    }));
    assert.deepEqual(returns('TypedRouter.inferredNamed'), json({ type: 'array', items: ref('Task') }));
  });

  it('reads void and undefined as empty, tuples with their status, error tuples as statuses', () => {
    assert.deepEqual(returns('TypedRouter.nothing'), { kind: 'empty' });
    assert.deepEqual(returns('TypedRouter.none'), { kind: 'empty' });
    assert.deepEqual(returns('TypedRouter.created'), json(ref('Task'), 201));
    assert.deepEqual(table.files[FIXTURE]['TypedRouter.found'], { returns: json(ref('Task'), 200), statuses: [{ status: 404, schema: errorBody }] });
    assert.deepEqual(table.files[FIXTURE]['TypedRouter.either'], { returns: json(ref('Task')), statuses: [{ status: 404, schema: errorBody }] });
  });

  it('reads returned [body, status] literals of a handler without an annotation', () => {
    assert.deepEqual(table.files[FIXTURE]['InferredTupleRouter.make'], { returns: json(ref('Task'), 201), statuses: [{ status: 422, schema: errorBody }] });
    assert.deepEqual(table.files[FIXTURE]['InferredTupleRouter.find'], { returns: json(ref('Task')), statuses: [{ status: 404, schema: errorBody }] });
  });

  it('gives a type with no JSON form the empty schema, for that handler only', () => {
    assert.deepEqual(returns('TypedRouter.broken'), json({}));
  });

  it("recognises trellis's response classes and render() by kind", () => {
    assert.deepEqual(
      Object.fromEntries(Object.entries(table.files[FIXTURE]).filter(([key]) => key.startsWith('ResponseRouter.')).map(([key, types]) => [key, types.returns])),
      {
        'ResponseRouter.html': { kind: 'html' },
        'ResponseRouter.page': { kind: 'html' },
        'ResponseRouter.away': { kind: 'redirect' },
        'ResponseRouter.file': { kind: 'file' },
        'ResponseRouter.stream': { kind: 'stream' },
        'ResponseRouter.events': { kind: 'events' },
        'ResponseRouter.raw': { kind: 'response' },
        'ResponseRouter.readable': { kind: 'stream' },
      },
    );
  });
});

describe('readSourceTypes: where the sources are', () => {
  // A file with no import: the program is small, and no tsconfig.json is found above the temporary folder.
  const SOURCE = (type: string) => `const Get = (): MethodDecorator => () => {};\nexport class R {\n  @Get() one(): ${type} {\n    return undefined as never;\n  }\n}\n`;

  it('reads nothing for files without a TypeScript source', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'plain.js'), 'exports.x = 1;\n');
    assert.equal(readSourceTypes([join(dir, 'plain.js'), join(dir, 'missing.ts')], { cacheDir: false }), undefined);
  });

  it('reads the .ts beside a compiled .js, keyed by the .js', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'r.ts'), SOURCE('{ ok: boolean }'));
    writeFileSync(join(dir, 'r.js'), '// compiled\n');
    const table = readSourceTypes([join(dir, 'r.js')], { cacheDir: false });
    assert.deepEqual(table?.files, { [join(dir, 'r.js')]: { 'R.one': { returns: json({ type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }) } } });
  });

  it("reads the source a compiled file's source map names", () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'src'));
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'src', 'r.ts'), SOURCE('string[]'));
    writeFileSync(join(dir, 'dist', 'r.js'), '// compiled\n//# sourceMappingURL=r.js.map\n');
    writeFileSync(join(dir, 'dist', 'r.js.map'), JSON.stringify({ version: 3, file: 'r.js', sources: ['../src/r.ts'], mappings: '' }));
    const table = readSourceTypes([join(dir, 'dist', 'r.js')], { cacheDir: false });
    assert.deepEqual(table?.files[join(dir, 'dist', 'r.js')], { 'R.one': { returns: json({ type: 'array', items: { type: 'string' } }) } });
  });

  it("resolves `trellis` to the running trellis for a project that has no node_modules of its own (as `trellis run` serves it)", () => {
    const dir = tempDir();
    const source = [
      "import { Get, RedirectResponse, router, TemplateResponse } from 'trellis';",
      "export class Pages extends router('/') {",
      "  @Get('/') home() { return new TemplateResponse('index.html', {}); }",
      "  @Get('/home') toHome() { return new RedirectResponse('/'); }",
      '}',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'pages.ts'), source);
    const table = readSourceTypes([join(dir, 'pages.ts')], { cacheDir: false });
    assert.deepEqual(table?.files[join(dir, 'pages.ts')], { 'Pages.home': { returns: { kind: 'html' } }, 'Pages.toHome': { returns: { kind: 'redirect' } } });
  });

  it('caches the table by file content: in memory, then on disk, read again when a file changes', () => {
    const dir = tempDir();
    const cacheDir = join(dir, 'cache');
    const file = join(dir, 'r.ts');
    writeFileSync(file, SOURCE('number'));
    let programs = 0;
    const read = () => readSourceTypes([file], { cacheDir, onProgram: () => programs++ });
    const first = read();
    assert.equal(programs, 1);
    assert.equal(readdirSync(cacheDir).filter((name) => name.endsWith('.json')).length, 1, 'one entry written');
    assert.deepEqual(read(), first);
    assert.equal(programs, 1, 'the second read comes from memory');
    clearMemoryCache();
    assert.deepEqual(read(), first);
    assert.equal(programs, 1, 'a new process reads the disk entry');
    writeFileSync(file, SOURCE('string'));
    assert.deepEqual(read()?.files[file]['R.one'].returns, json({ type: 'string' }));
    assert.equal(programs, 2, 'a changed file is read again');
  });
});

describe('the app reads its routes types once it starts', () => {
  it('reads the files its routes were declared in', async () => {
    const app = new BaseRouter({ docs: false }).includeRouter(TypedRouter).includeRouter(ResponseRouter);
    void app.handler;
    const table = appInternals(app).sourceTypes();
    const route = app.routes.find((r) => r.path === '/typed/tuple')!;
    assert.equal(route.source?.file, FIXTURE);
    assert.deepEqual(methodTypes(table, route)?.returns, json(ref('Task'), 201));
    assert.ok(table?.schemas.Task);
  });

  it('takes a given table, or reads nothing with sourceTypes: false', () => {
    const given: TypeTable = { files: {}, schemas: { Given: { type: 'string' } } };
    const app = new BaseRouter({ docs: false, sourceTypes: given }).includeRouter(TypedRouter);
    void app.handler;
    assert.equal(appInternals(app).sourceTypes(), given);
    const off = new BaseRouter({ docs: false, sourceTypes: false }).includeRouter(TypedRouter);
    void off.handler;
    assert.equal(appInternals(off).sourceTypes(), undefined);
  });
});
