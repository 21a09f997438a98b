import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cleanup, copyFixture, http, runCli, Running } from './run-support';

const running: Running[] = [];
after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  cleanup();
});

/**
 * The healthy fixture (its config.yaml has `admin:` on line 8, `token: fixture-token` on line 9) plus a service
 * that reads its `admin` section with `config.section('admin', AdminSettings)` in its constructor, and a
 * router that needs the service; `admin` replaces the section's lines.
 */
function projectWithSettings(admin: string[]): string {
  const dir = copyFixture('healthy');
  writeFileSync(
    join(dir, 'services', 'audit_service.ts'),
    [
      "import { IsNotEmpty, IsString } from 'class-validator';",
      "import { Config, Injectable } from 'trellis';",
      '',
      'class AdminSettings {',
      '  @IsNotEmpty() @IsString() token!: string;',
      '}',
      '',
      '@Injectable()',
      'export class AuditService {',
      '  readonly settings: AdminSettings;',
      "  constructor(config: Config) { this.settings = config.section('admin', AdminSettings); }",
      '}',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'routers', 'audit.ts'),
    [
      "import { Get, Injectable, router } from 'trellis';",
      "import { AuditService } from '../services/audit_service';",
      '',
      '@Injectable()',
      "export class AuditRouter extends router('/audit') {",
      '  constructor(private readonly audit: AuditService) { super(); }',
      '',
      "  @Get() length() { return { tokenLength: this.audit.settings.token.length }; }",
      '}',
      '',
    ].join('\n'),
  );
  const config = join(dir, 'config.yaml');
  const text = readFileSync(config, 'utf8');
  assert.match(text, /\nadmin:\n {2}token: fixture-token\n$/);
  writeFileSync(config, text.replace(/admin:\n {2}token: fixture-token\n$/, `${admin.join('\n')}\n`));
  return dir;
}

describe("trellis run: a service's config.section", () => {
  it('exits 1 with config.yaml:LINE: admin.token must be a string, never the value', async () => {
    const dir = projectWithSettings(['admin:', '  token: 12345']);
    const run = await runCli(['run', '.', '--port', '0'], { cwd: dir });
    assert.deepEqual([run.code, run.stdout, run.stderr], [1, '', 'trellis: config.yaml:9: admin.token must be a string\n']);
  });

  it('reports the first of several failing settings as its one line', async () => {
    const dir = projectWithSettings(['admin:', '  realm: s3cret-realm', '  token: [s3cret]']);
    const run = await runCli(['run', '.', '--port', '0'], { cwd: dir });
    assert.equal(run.code, 1);
    assert.equal(run.stderr, 'trellis: config.yaml:9: admin.realm is not a setting of AdminSettings (its settings are token)\n');
    assert.doesNotMatch(run.stdout + run.stderr, /s3cret/);
  });

  it('points at the section when a setting is missing, and serves the typed section when it fits', async () => {
    const missing = await runCli(['run', '.', '--port', '0'], { cwd: projectWithSettings(['admin: {}']) });
    assert.deepEqual([missing.code, missing.stderr], [1, 'trellis: config.yaml:8: admin.token is not set (it must be a string)\n']);
    const dir = projectWithSettings(['admin:', '  token: four']);
    const run = new Running(['.', '--port', '0'], dir);
    running.push(run);
    const url = await run.url();
    assert.deepEqual(JSON.parse((await http(`${url}/audit`)).text), { tokenLength: 4 });
  });
});
