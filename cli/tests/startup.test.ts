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
    assert.deepEqual(loaded.names, ['create', 'add', 'run', 'doctor', 'test']);
    const heavy = loaded.files.filter((file) => /^(generators|framework|runtime)\/|^cli\/(doctor|project)\//.test(file));
    assert.deepEqual(heavy, []);
    assert.ok(loaded.files.includes('cli/commands/run.ts'));
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
});
