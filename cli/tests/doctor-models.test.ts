import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { DoctorReport } from '../doctor/report';
import { cleanup, copyFixture, runCli } from './run-support';

after(cleanup);

// A body class with one property nobody decorated: validation strips it from every request, silently.
const NOTES = [
  "import { Post, router } from 'trellis';",
  "import { Body } from 'trellis/param';",
  "import { IsString } from 'class-validator';",
  '',
  'class NoteIn {',
  '  @IsString() title!: string;',
  '  body?: string;',
  '  static readonly kind = "note";',
  '}',
  '',
  "export class NoteRouter extends router('/notes') {",
  "  @Post('/') create(@Body() note: NoteIn) { return { title: note.title }; }",
  '}',
  '',
].join('\n');

// Two DTO classes of one name, in two files: the OpenAPI document cannot name both.
const item = (field: string) => [
  "import { IsString } from 'class-validator';",
  '',
  'export class Item {',
  `  @IsString() ${field}!: string;`,
  '}',
  '',
].join('\n');
const ITEMS = [
  "import { Post, router } from 'trellis';",
  "import { Body } from 'trellis/param';",
  "import { Item } from '../models/item';",
  "import { Item as LegacyItem } from '../models/legacy-item';",
  '',
  "export class ItemRouter extends router('/items') {",
  "  @Post('/') create(@Body() item: Item) { return item; }",
  "  @Post('/legacy') legacy(@Body() item: LegacyItem) { return item; }",
  '}',
  '',
].join('\n');

describe('trellis doctor: DTO classes', () => {
  it('warns about a property without a decorator, naming the class, the property and its line', async () => {
    const dir = copyFixture('healthy');
    writeFileSync(join(dir, 'routers', 'notes.ts'), NOTES);
    const result = await runCli(['doctor', dir, '--json']);
    const report = JSON.parse(result.stdout) as DoctorReport;
    const warnings = report.warnings.filter((warning) => warning.code === 'undecorated-property');
    assert.deepEqual(warnings.map((warning) => [warning.file, warning.line, warning.message]), [
      [
        'routers/notes.ts',
        7,
        'NoteIn.body has no decorator, so nothing knows it at run time: validation strips it from every request body and a response leaves it out; decorate it (@IsString(), @IsOptional(), @Allow(), ...)',
      ],
    ]);
    const text = await runCli(['doctor', dir]);
    assert.ok(text.stdout.includes(`  warning ${dir}/routers/notes.ts:7: ${warnings[0].message} [undecorated-property]\n`), text.stdout);
  });

  it('reports two DTO classes of one name as an error: the document cannot be built, and the app would not start', async () => {
    const dir = copyFixture('healthy');
    mkdirSync(join(dir, 'models'));
    writeFileSync(join(dir, 'models', 'item.ts'), item('name'));
    writeFileSync(join(dir, 'models', 'legacy-item.ts'), item('label'));
    writeFileSync(join(dir, 'routers', 'items.ts'), ITEMS);
    const result = await runCli(['doctor', dir, '--json']);
    assert.equal(result.code, 1);
    const report = JSON.parse(result.stdout) as DoctorReport;
    assert.deepEqual(report.errors.map((error) => [error.code, error.message]), [
      ['openapi-invalid', 'The OpenAPI document cannot be built: Two different classes named Item are used by the routes; the OpenAPI document names schemas by class name: rename one'],
    ]);
  });
});
