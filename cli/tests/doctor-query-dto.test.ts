import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { DoctorReport } from '../doctor/report';
import { cleanup, copyFixture, runCli } from './run-support';

after(cleanup);

// A handler binding a path value, a @Query() class and a @Header() class: every argument is bound.
const SEARCH = [
  "import { Get, router } from 'trellis';",
  "import { Header, Path, Query } from 'trellis/param';",
  "import { IsInt, IsOptional, IsString, Max, Min, Validate, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';",
  '',
  "@ValidatorConstraint({ name: 'IsSlug' })",
  'class IsSlug implements ValidatorConstraintInterface {',
  "  validate(value: unknown) { return typeof value === 'string' && /^[a-z-]+$/.test(value); }",
  '}',
  '',
  'export class SearchQuery {',
  '  @IsInt() @Min(1) @Max(100) limit = 20;',
  '  @IsOptional() @Validate(IsSlug) slug?: string;',
  '  cursor?: string;',
  '}',
  '',
  'export class TraceHeaders {',
  '  @IsOptional() @IsString() requestId?: string;',
  '}',
  '',
  "export class SearchRouter extends router('/search') {",
  "  @Get('/{kind}') find(@Path('kind') kind: string, @Query() query: SearchQuery, @Header() headers: TraceHeaders) {",
  '    return { kind, limit: query.limit, requestId: headers.requestId ?? null };',
  '  }',
  '}',
  '',
].join('\n');

describe('trellis doctor: @Query() and @Header() classes', () => {
  it('treats the handler as bound, checks the classes as DTOs and lists one validated by class-validator', async () => {
    const dir = copyFixture('healthy');
    writeFileSync(join(dir, 'routers', 'search.ts'), SEARCH);
    const result = await runCli(['doctor', dir, '--json']);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as DoctorReport;
    assert.deepEqual(report.errors, []);
    assert.deepEqual(report.warnings.map((warning) => [warning.code, warning.file, warning.line]), [['undecorated-property', 'routers/search.ts', 13]]);
    assert.match(report.warnings[0].message, /^SearchQuery\.cursor has no decorator/);
    assert.deepEqual(report.validation, [
      { model: 'SearchQuery', reason: 'SearchQuery.slug: custom constraint IsSlug', file: 'routers/search.ts', line: 10 },
    ]);
  });
});
