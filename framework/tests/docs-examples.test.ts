import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  brokenLinks,
  codeBlocks,
  formatProblems,
  headingAnchors,
  isCheckedTypeScript,
  markdownFiles,
  typeCheckBlocks,
} from './support/docs-check';

// The docs are part of the product: every ```ts block of README.md and docs/**/*.md compiles against the
// sources as a module of its own, and every relative link leads somewhere.
const root = join(__dirname, '..', '..');
const files = markdownFiles(root);
const blocks = files.flatMap((file) => codeBlocks(file, readFileSync(join(root, file), 'utf8')));

describe('the docs', () => {
  it('cover the README, the guide and the reference', () => {
    for (const page of ['README.md', 'docs/guide/README.md', 'docs/reference/README.md', 'docs/reference/errors.md']) {
      assert.ok(files.includes(page), page);
    }
    assert.ok(blocks.filter(isCheckedTypeScript).length >= 20, 'fewer than 20 TypeScript blocks checked');
  });

  it('type-check every ```ts block as a module (file:line of each error)', () => {
    const problems = typeCheckBlocks(root, blocks.filter(isCheckedTypeScript));
    assert.equal(formatProblems(problems), '');
  });

  it('link only to files and headings that exist', () => {
    assert.equal(formatProblems(brokenLinks(root, files)), '');
  });
});

describe('the docs check', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-docs-check-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'tsconfig.json'), readFileSync(join(root, 'tsconfig.json'), 'utf8').replace(/"\.\//g, `"${root}/`));
  mkdirSync(join(dir, 'docs', 'guide'), { recursive: true });
  writeFileSync(
    join(dir, 'README.md'),
    [
      '# Demo',
      '',
      'See [the guide](docs/guide/first.md#a-router), [missing](docs/nope.md), [bad anchor](docs/guide/first.md#nope),',
      '[here](#demo) and `[not a link](nowhere.md)`; [web](https://example.com/x.md) is not followed.',
      '',
      '```ts',
      "import { router, Get } from 'trellis';",
      "class A extends router('/a') { @Get() list() { return 1; } }",
      'const n: string = 1;',
      '```',
      '',
      '- in a list:',
      '',
      '  ```ts',
      "  import { BaseRouter } from 'trellis';",
      '  await new BaseRouter().start();',
      '  ```',
      '',
      '```ts fragment',
      '@Get() list() {}',
      '```',
      '',
      '```sh',
      'npm test',
      '```',
      '',
      '```ts file=services/clock.ts',
      'export class Clock { now(): number { return 1; } }',
      '```',
      '',
      '```ts file=routers/time.ts',
      "import { Clock } from '../services/clock';",
      'export const now: number = new Clock().now();',
      '```',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'docs', 'guide', 'first.md'), '# First\n\n## A router\n\n## A router\n\n### `--reload` and `run`\n');
  const readme = codeBlocks('README.md', readFileSync(join(dir, 'README.md'), 'utf8'));

  it('finds fenced blocks, in lists too, and checks ts ones but fragments', () => {
    assert.deepEqual(
      readme.map((b) => [b.line, b.info, isCheckedTypeScript(b)]),
      [
        [7, 'ts', true],
        [15, 'ts', true],
        [20, 'ts fragment', false],
        [24, 'sh', false],
        [28, 'ts file=services/clock.ts', true],
        [32, 'ts file=routers/time.ts', true],
      ],
    );
    assert.equal(readme[1].code, "import { BaseRouter } from 'trellis';\nawait new BaseRouter().start();");
  });

  it('reports a block that does not compile at its markdown line, and passes those that do, file= blocks importing each other', () => {
    const problems = typeCheckBlocks(dir, readme.filter(isCheckedTypeScript));
    assert.equal(formatProblems(problems), "README.md:9: Type 'number' is not assignable to type 'string'.");
  });

  it('reports a missing file and a missing heading at their line, and follows no web address', () => {
    assert.deepEqual(
      brokenLinks(dir, markdownFiles(dir)).map((p) => `${p.file}:${p.line}: ${p.message}`),
      [
        'README.md:3: docs/nope.md: docs/nope.md does not exist',
        'README.md:3: docs/guide/first.md#nope: docs/guide/first.md has no heading #nope',
      ],
    );
  });

  it("names headings as GitHub's anchors", () => {
    assert.deepEqual([...headingAnchors(readFileSync(join(dir, 'docs', 'guide', 'first.md'), 'utf8'))], [
      'first',
      'a-router',
      'a-router-1',
      '--reload-and-run',
    ]);
  });
});
