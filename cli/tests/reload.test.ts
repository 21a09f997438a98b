import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cleanup, copyFixture, Running } from './run-support';

const running: Running[] = [];
after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  cleanup();
});

function start(dir: string, ...flags: string[]): Running {
  const run = new Running(['.', '--port', '0', '--reload', '--no-access-log', ...flags], dir);
  running.push(run);
  return run;
}

/** A router at /extra answering `value`. */
const extra = (value: string) =>
  `import { Get, router } from 'trellis';\nexport class ExtraRouter extends router('/extra') {\n  @Get() list() { return ${JSON.stringify(value)}; }\n}\n`;

/** What `sed -i` and editors' safe-write do: write a temporary file beside `file`, then rename it over `file`. */
function renameSave(file: string, text: string): void {
  const temporary = join(file, '..', `sed${Math.random().toString(36).slice(2, 8)}`);
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/** GET on a new connection: the body, or `error CODE`. */
function attempt(url: string): Promise<string> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve(res.statusCode === 200 ? text : `status ${res.statusCode}`));
      res.on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code ?? error.message}`));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code ?? error.message}`));
    req.end();
  });
}

/**
 * The answer of GET `url` once it is `expected`: the new version serves from its banner on, the old one takes
 * connections until it hears of it a moment later.
 */
async function answerBecomes(url: string, expected: string): Promise<string> {
  let answer = '';
  for (let i = 0; i < 50 && answer !== expected; i++) {
    answer = await attempt(url);
    if (answer !== expected) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return answer;
}

/** Waits for the banner of the version started by the change of `file`, after stdout offset `from`. */
const reloaded = (run: Running, file: string, from: number) =>
  run.waitFor(new RegExp(`Reloading: ${file.replace(/[./]/g, '\\$&')} changed\\n[\\s\\S]*for a more detailed analysis\\.\\n`), 30_000, from);

describe('trellis run --reload', () => {
  it('keeps reloading after rename-style saves (sed -i, safe-write), new files and in-place writes', async () => {
    const dir = copyFixture('healthy');
    const run = start(dir);
    const url = await run.url();
    const file = join(dir, 'routers', 'extra.ts');

    let from = run.stdout.length;
    renameSave(file, extra('one')); // a new file
    await reloaded(run, 'routers/extra.ts', from);
    assert.match(run.stdout.slice(from), /Routers: {5}3 discovered/);
    assert.equal(run.stdout.slice(from).match(/Running app .+ on (\S+)/)?.[1], url, 'same address after a reload');
    assert.equal(await answerBecomes(`${url}/extra`, '"one"'), '"one"');

    from = run.stdout.length;
    renameSave(file, extra('two')); // renamed over the file
    await reloaded(run, 'routers/extra.ts', from);
    assert.equal(await answerBecomes(`${url}/extra`, '"two"'), '"two"');

    from = run.stdout.length;
    writeFileSync(file, extra('three')); // the same file, written in place, after the rename
    await reloaded(run, 'routers/extra.ts', from);
    assert.equal(await answerBecomes(`${url}/extra`, '"three"'), '"three"');

    // A new subfolder is watched from then on; a deleted file is a change too.
    const nested = join(dir, 'routers', 'nested');
    mkdirSync(nested);
    from = run.stdout.length;
    writeFileSync(join(nested, 'more.ts'), extra('nested').replace(/Extra/g, 'More').replace('/extra', '/more'));
    await run.waitFor(/Reloading: routers\/nested(\/more\.ts)? changed\n[\s\S]*for a more detailed analysis\.\n/, 30_000, from);
    assert.equal(await answerBecomes(`${url}/more`, '"nested"'), '"nested"');
    from = run.stdout.length;
    renameSave(join(nested, 'more.ts'), extra('nested again').replace(/Extra/g, 'More').replace('/extra', '/more'));
    await reloaded(run, 'routers/nested/more.ts', from);
    assert.equal(await answerBecomes(`${url}/more`, '"nested again"'), '"nested again"');
    from = run.stdout.length;
    rmSync(file);
    await reloaded(run, 'routers/extra.ts', from);
    assert.equal(await answerBecomes(`${url}/extra`, 'status 404'), 'status 404');

    run.kill('SIGTERM');
    assert.deepEqual(await run.exited, { code: 0, signal: null });
  });

  it('keeps the previous version serving through a syntax error, and recovers when it is fixed by a rename-style save', async () => {
    const dir = copyFixture('healthy');
    const file = join(dir, 'routers', 'extra.ts');
    writeFileSync(file, extra('before'));
    const run = start(dir);
    const url = await run.url();

    let from = run.stdout.length;
    renameSave(file, 'export const = ;\n');
    await run.waitFor(/waiting for a file change/, 30_000, from);
    assert.match(run.stderr, /^trellis: routers\/extra\.ts:1: SyntaxError: /m);
    assert.equal(await attempt(`${url}/extra`), '"before"', 'the previous version still serves');

    from = run.stdout.length;
    renameSave(file, extra('fixed'));
    await reloaded(run, 'routers/extra.ts', from);
    assert.equal(await answerBecomes(`${url}/extra`, '"fixed"'), '"fixed"');

    run.kill('SIGTERM');
    assert.deepEqual(await run.exited, { code: 0, signal: null });
  });

  it('refuses no connection across reloads under a steady stream of requests, with --workers 2', async () => {
    const dir = copyFixture('healthy');
    const file = join(dir, 'routers', 'extra.ts');
    writeFileSync(file, extra('v0'));
    const run = start(dir, '--workers', '2');
    const url = await run.url();

    const outcomes = new Map<string, number>();
    let streaming = true;
    const stream = async () => {
      while (streaming) {
        const outcome = await attempt(`${url}/tasks`);
        const key = outcome.startsWith('[') ? 'ok' : outcome;
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const streams = [stream(), stream()];
    for (const version of ['v1', 'v2', 'v3']) {
      const from = run.stdout.length;
      writeFileSync(file, extra(version));
      await reloaded(run, 'routers/extra.ts', from);
      assert.equal(await answerBecomes(`${url}/extra`, JSON.stringify(version)), JSON.stringify(version));
    }
    streaming = false;
    await Promise.all(streams);

    const ok = outcomes.get('ok') ?? 0;
    outcomes.delete('ok');
    assert.deepEqual(Object.fromEntries(outcomes), {}, 'every request answered 200');
    assert.ok(ok > 0);
    run.kill('SIGTERM');
    assert.deepEqual(await run.exited, { code: 0, signal: null });
  });
});
