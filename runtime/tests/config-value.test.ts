import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsString, Min, ValidateNested } from 'class-validator';
import { Config, Injectable, Settings } from '../../framework/index';
import { readConfig } from '../config';
import { configValueProblem, configValueProblems, settingsProblems } from '../config-value';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function load(lines: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-config-value-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'config.yaml'), lines.join('\n'));
  const config = readConfig(dir);
  assert.deepEqual(config.issues, []);
  return config;
}

class Pool {
  @IsInt() @Min(1) size!: number;
}

@Settings('admin')
class AdminSettings {
  @IsString() @IsNotEmpty() token!: string;
  @IsString() realm!: string;
  @ValidateNested() @Type(() => Pool) pool!: Pool;
}

/** The error of reading `admin` as AdminSettings. */
function sectionError(config: { values: Record<string, unknown> }): unknown {
  try {
    new Config(config.values).section('admin', AdminSettings);
  } catch (error) {
    return error;
  }
  return assert.fail('no error');
}

const FILE = [
  'app: { title: Demo }', // 1
  'admin:', // 2
  '  token: 12345', // 3
  '  pool:', // 4
  '    size: 0', // 5
  '  extra: yes', // 6
];

describe('config.yaml lines of settings that do not fit', () => {
  it('gives one problem per failing setting, at its line (a missing one at its section)', () => {
    const config = load(FILE);
    const located = configValueProblems(config, sectionError(config)).map((problem) => `${problem.file}:${problem.line}: ${problem.message}`);
    assert.deepEqual(located, [
      'config.yaml:6: admin.extra is not a setting of AdminSettings (its settings are token, realm, pool)',
      'config.yaml:3: admin.token must be a string',
      'config.yaml:2: admin.realm is not set (it must be a string)',
      'config.yaml:5: admin.pool.size must not be less than 1',
    ]);
    assert.equal(configValueProblems(config, sectionError(config))[0].code, 'TRELLIS_ERR_CONFIG_SECTION');
  });

  it('gives trellis run the first one (its one line)', () => {
    const config = load(FILE.slice(0, 5).concat('  realm: r'));
    assert.deepEqual(configValueProblem(config, sectionError(config)), {
      file: 'config.yaml',
      line: 3,
      message: 'admin.token must be a string',
      code: 'TRELLIS_ERR_CONFIG_SECTION',
    });
  });

  it('points at line 1 when the section is not in the file at all, and keeps config.string errors as they were', () => {
    const config = load(['app: { title: Demo }']);
    assert.deepEqual(configValueProblem(config, sectionError(config)), {
      file: 'config.yaml',
      line: 1,
      message: 'admin.token is not set (it should not be empty)',
      code: 'TRELLIS_ERR_CONFIG_SECTION',
    });
    const stringError = (() => {
      try {
        new Config(config.values).string('app.title.x');
      } catch (error) {
        return error;
      }
    })();
    assert.deepEqual(configValueProblems(config, stringError), [
      { file: 'config.yaml', line: 1, message: 'app.title.x must be a non-empty string, got nothing (it is not set)', code: 'TRELLIS_ERR_CONFIG_VALUE' },
    ]);
    assert.deepEqual(configValueProblems(config, new Error('other')), []);
    assert.equal(configValueProblem(config, new Error('other')), undefined);
  });

  it('checks the @Settings classes that classes take, without building them (settingsProblems)', () => {
    let built = 0;
    @Injectable()
    class Guard {
      constructor(readonly admin: AdminSettings) {
        built++;
      }
    }
    class Plain {}
    const config = load(FILE.slice(0, 5).concat('  realm: r'));
    const lines = (classes: Function[]) => settingsProblems(config, classes as never).map((problem) => `${problem.line}: ${problem.message}`);
    assert.deepEqual(lines([Plain, Guard, AdminSettings]), ['3: admin.token must be a string', '5: admin.pool.size must not be less than 1']);
    assert.deepEqual(lines([Plain]), []);
    assert.equal(built, 0);
    assert.deepEqual(settingsProblems(load(['admin: { token: t, realm: r, pool: { size: 2 } }']), [Guard]), []);

    @Settings('bare')
    class Bare {
      token!: string;
    }
    assert.deepEqual(lines([Bare]), ['1: The settings class Bare (config section bare) has no class-validator decorators, so no setting would be checked: decorate its fields (@IsString(), ...)']);
  });
});
