import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { DoctorReport } from '../doctor/report';
import { cleanup, copyFixture, runCli } from './run-support';

after(cleanup);

// A body DTO with a custom constraint keeps class-validator per request; doctor says which class and why.
const SLUGS = [
  "import { Post, router } from 'trellis';",
  "import { Body } from 'trellis/param';",
  "import { IsString, Validate, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';",
  '',
  "@ValidatorConstraint({ name: 'IsSlug' })",
  'export class IsSlug implements ValidatorConstraintInterface {',
  "  validate(value: unknown) { return typeof value === 'string' && /^[a-z-]+$/.test(value); }",
  '}',
  '',
  'export class SlugIn {',
  '  @IsString() @Validate(IsSlug) slug!: string;',
  '}',
  '',
  "export class SlugRouter extends router('/slugs') {",
  "  @Post('/') create(@Body() body: SlugIn) { return body; }",
  '}',
  '',
].join('\n');

describe('trellis doctor: body classes that are not compiled', () => {
  it('lists each with where it is declared and the reason, and nothing for compiled ones', async () => {
    const dir = copyFixture('healthy');
    writeFileSync(join(dir, 'routers', 'slugs.ts'), SLUGS);
    const result = await runCli(['doctor', dir]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(
      result.stdout.includes(
        [
          'Validation: 1 DTO class validated by class-validator per request (rules not compiled):',
          `  SlugIn  ${dir}/routers/slugs.ts:10  SlugIn.slug: custom constraint IsSlug`,
          'OpenAPI:',
        ].join('\n'),
      ),
      result.stdout,
    );
    const json = JSON.parse((await runCli(['doctor', dir, '--json'])).stdout) as DoctorReport;
    assert.deepEqual(json.validation, [
      { model: 'SlugIn', reason: 'SlugIn.slug: custom constraint IsSlug', file: 'routers/slugs.ts', line: 10 },
    ]);
  });

  it('prints no validation section when every body class compiles', async () => {
    const result = await runCli(['doctor', copyFixture('healthy'), '--json']);
    assert.deepEqual((JSON.parse(result.stdout) as DoctorReport).validation, []);
  });
});
