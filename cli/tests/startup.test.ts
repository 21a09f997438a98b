import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ROOT } from './run-support';

const temporary: string[] = [];
after(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

/** Runs `script` (JavaScript) in a fresh `node [flags] -r register.js` in the package folder; returns its JSON output. */
function inFreshProcess(script: string, flags: string[] = []): unknown {
  const result = spawnSync(process.execPath, [...flags, '-r', './register.js', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

describe('what a CLI start loads', () => {
  it('declares every command without loading what they do (generators, doctor, the server)', () => {
    const loaded = inFreshProcess(`
      const program = require('./cli/main.ts').buildProgram();
      const names = program.commands.map((command) => command.name());
      const files = Object.keys(require.cache).map((file) => require('node:path').relative(process.cwd(), file));
      console.log(JSON.stringify({ names, files: files.filter((file) => !file.startsWith('node_modules')) }));
    `) as { names: string[]; files: string[] };
    assert.deepEqual(loaded.names, ['create', 'add', 'run', 'build', 'client', 'token', 'db', 'doctor', 'test']);
    const heavy = loaded.files.filter((file) => /^(generators|framework|runtime)\/|^cli\/(doctor|project|build|client)\//.test(file));
    assert.deepEqual(heavy, []);
    assert.ok(loaded.files.includes('cli/commands/run.ts'));
    // `db migrate`'s work (it loads the runtime and the database) waits for the command.
    assert.ok(loaded.files.includes('cli/commands/db.ts'));
    assert.equal(loaded.files.includes('cli/commands/db-migrate.ts'), false);
  });

  it("source-maps project files (stack traces give TypeScript lines) but not trellis's own, unless Node maps everything", () => {
    const dir = mkdtempSync(join(tmpdir(), 'trellis-maps-'));
    temporary.push(dir);
    const file = join(dir, 'thrower.ts');
    // Compiled (CommonJS exports, types gone, fields moved into the constructor) the throw is on line 19.
    writeFileSync(
      file,
      [
        'interface Shape {',
        '  name: string;',
        '}',
        'type Named = Pick<Shape, "name">;',
        'export class Thrower {',
        '  private readonly shape: Named = { name: "x" };',
        '  constructor(readonly label: string) {}',
        '  fail(): never {',
        '    throw new Error(`failed ${this.label} ${this.shape.name}`);',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    const script = `
      const { findSourceMap } = require('node:module');
      let line;
      try { new (require(${JSON.stringify(file)}).Thrower)('a').fail(); } catch (error) { line = /thrower\\.ts:(\\d+)/.exec(error.stack)[1]; }
      const framework = require.resolve('./framework/index.ts');
      require(framework);
      console.log(JSON.stringify({ line: Number(line), project: Boolean(findSourceMap(${JSON.stringify(file)})), framework: Boolean(findSourceMap(framework)) }));
    `;
    assert.deepEqual(inFreshProcess(script), { line: 9, project: true, framework: false });
    assert.deepEqual(inFreshProcess(script, ['--enable-source-maps']), { line: 9, project: true, framework: true });
  });

  it("serves the health probes and a route without loading Node's fetch (undici), which costs about 40 ms", async () => {
    const script = `
      const http = require('node:http');
      const { BaseRouter, router, Get } = require('./framework/index.ts');
      class Tasks extends router('/tasks') { one() { return { id: 1 }; } }
      Get('/1')(Tasks.prototype, 'one', Object.getOwnPropertyDescriptor(Tasks.prototype, 'one'));
      const app = new BaseRouter({ health: true }).includeRouter(new Tasks());
      const server = http.createServer(app.handler).listen(0, '127.0.0.1', async () => {
        const get = (path) => new Promise((done) => http.get({ port: server.address().port, host: '127.0.0.1', path }, (res) => { res.resume(); done(res.statusCode); }));
        const statuses = [await get('/healthz'), await get('/tasks/1')];
        server.close();
        console.log(JSON.stringify({ statuses, undici: process.moduleLoadList.filter((name) => name.includes('undici')) }));
      });
    `;
    assert.deepEqual(inFreshProcess(script), { statuses: [200, 200], undici: [] });
  });
});
