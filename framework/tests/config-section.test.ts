import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, IsUrl, Min, ValidateNested } from 'class-validator';
import { Config, Settings } from '../index';
import { ConfigSectionError, type ConfigProblem } from '../config-section';
import { ConfigValueError } from '../config';
import { TrellisError } from '../framework-error';
import { settingsSectionOf } from '../inspect';
import { settingsProvider } from '../settings';

class Database {
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['postgres'] }) url!: string;
  @IsInt() @Min(1) pool!: number;
}

class AdminSettings {
  @IsNotEmpty() @IsString() token!: string;
  @IsOptional() @IsInt() @Min(1) maxSessions?: number;
}

class ServiceSettings {
  @IsString() name!: string;
  @ValidateNested() @Type(() => Database) database!: Database;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Database) replicas?: Database[];
}

const SECRET = 's3cret-value-never-echoed';

/** The problems of reading `section` of `values` as `cls`, as [path, message] pairs. */
function problemsOf(values: Record<string, unknown>, section: string, cls: new () => object): Array<[string, string]> {
  try {
    new Config(values).section(section, cls);
  } catch (error) {
    assert.ok(error instanceof ConfigSectionError, String(error));
    assert.ok(error instanceof TrellisError);
    assert.equal(error.code, 'TRELLIS_ERR_CONFIG_SECTION');
    assert.equal(error.path, error.problems[0].path);
    assert.equal(error.message, `Config section ${section} does not fit ${cls.name}: ${error.problems.map((p) => p.message).join('; ')}`);
    return error.problems.map((problem: ConfigProblem) => [problem.path, problem.message]);
  }
  assert.fail('no error');
}

describe('config.section', () => {
  it('returns a frozen instance of the class, typed, with what the file holds', () => {
    const config = new Config({ admin: { token: 'abc', maxSessions: 3 } });
    const admin = config.section('admin', AdminSettings);
    assert.ok(admin instanceof AdminSettings);
    const token: string = admin.token;
    const sessions: number | undefined = admin.maxSessions;
    assert.deepEqual([token, sessions], ['abc', 3]);
    assert.ok(Object.isFrozen(admin));
    // @ts-expect-error: the result is typed, not a record
    assert.equal(admin.other, undefined);
  });

  it('reads nested mappings into nested classes (dotted section paths too)', () => {
    const config = new Config({
      services: { notes: { name: 'notes', database: { url: 'postgres://db/notes', pool: 4 }, replicas: [{ url: 'postgres://r1/notes', pool: 1 }] } },
    });
    const settings = config.section('services.notes', ServiceSettings);
    assert.ok(settings.database instanceof Database);
    assert.ok(settings.replicas?.[0] instanceof Database);
    assert.equal(settings.database.pool, 4);
    assert.ok(Object.isFrozen(settings.database) && Object.isFrozen(settings.replicas));
    assert.throws(() => {
      (settings.database as { pool: number }).pool = 5;
    }, TypeError);
  });

  it('reports a missing setting, and a missing section, as not set', () => {
    assert.deepEqual(problemsOf({ admin: {} }, 'admin', AdminSettings), [['admin.token', 'admin.token is not set (it must be a string)']]);
    assert.deepEqual(problemsOf({}, 'admin', AdminSettings), [['admin.token', 'admin.token is not set (it must be a string)']]);
    assert.deepEqual(problemsOf({ admin: null }, 'admin', AdminSettings), [['admin.token', 'admin.token is not set (it must be a string)']]);
    assert.deepEqual(problemsOf({ admin: { token: null } }, 'admin', AdminSettings), [['admin.token', 'admin.token has no value (it must be a string)']]);
  });

  it('reports a setting of the wrong kind with its path and rule, never its value', () => {
    for (const token of [true, 12345, ['a'], { x: SECRET }]) {
      assert.deepEqual(problemsOf({ admin: { token } }, 'admin', AdminSettings), [['admin.token', 'admin.token must be a string']], JSON.stringify(token));
    }
    assert.deepEqual(problemsOf({ admin: { token: '' } }, 'admin', AdminSettings), [['admin.token', 'admin.token should not be empty']]);
    assert.deepEqual(problemsOf({ admin: SECRET }, 'admin', AdminSettings), [['admin', 'admin must be a mapping']]);
  });

  it('lists every failing setting, nested ones with their dotted paths', () => {
    const values = {
      services: { notes: { name: 7, database: { url: SECRET, pool: 0 }, replicas: [{ url: 'postgres://r1/x', pool: 1 }, { url: 1, pool: 2 }, 5] } },
    };
    assert.deepEqual(problemsOf(values, 'services.notes', ServiceSettings), [
      ['services.notes.name', 'services.notes.name must be a string'],
      ['services.notes.database.url', 'services.notes.database.url must be a URL address'],
      ['services.notes.database.pool', 'services.notes.database.pool must not be less than 1'],
      ['services.notes.replicas[1].url', 'services.notes.replicas[1].url must be a URL address'],
      ['services.notes.replicas[2]', 'services.notes.replicas[2] must be a mapping'],
    ]);
    assert.deepEqual(problemsOf({ services: { notes: { name: 'n' } } }, 'services.notes', ServiceSettings), [
      ['services.notes.database', 'services.notes.database is not set (it must be a mapping)'],
    ]);
    assert.deepEqual(problemsOf({ services: { notes: { name: 'n', database: 3 } } }, 'services.notes', ServiceSettings), [
      ['services.notes.database', 'services.notes.database must be a mapping'],
    ]);
  });

  it('never puts a value in a message, the error or its details', () => {
    const values = { admin: { token: { nested: SECRET }, maxSessions: SECRET }, services: { notes: { name: SECRET, database: { url: SECRET, pool: SECRET } } } };
    for (const [section, cls] of [['admin', AdminSettings], ['services.notes', ServiceSettings]] as Array<[string, new () => object]>) {
      try {
        new Config(values).section(section, cls);
        assert.fail('no error');
      } catch (error) {
        assert.ok(error instanceof ConfigSectionError);
        assert.ok(error.problems.length >= 2);
        const everything = JSON.stringify({ message: error.message, details: error.details, problems: error.problems, stack: error.stack });
        assert.doesNotMatch(everything, /s3cret/);
      }
    }
  });

  it('refuses keys the class does not declare, naming its settings; unknownKeys: ignore leaves them out', () => {
    assert.deepEqual(problemsOf({ admin: { tokn: 'x', token: 'y' } }, 'admin', AdminSettings), [
      ['admin.tokn', 'admin.tokn is not a setting of AdminSettings (its settings are token, maxSessions)'],
    ]);
    assert.deepEqual(problemsOf({ s: { name: 'n', database: { url: 'postgres://d/x', pool: 1, size: 2 } } }, 's', ServiceSettings), [
      ['s.database.size', 's.database.size is not a setting of Database (its settings are url, pool)'],
    ]);
    const admin = new Config({ admin: { tokn: 'x', token: 'y' } }).section('admin', AdminSettings, { unknownKeys: 'ignore' });
    assert.deepEqual({ ...admin }, { token: 'y' });
  });

  it('refuses a settings class without rules (TRELLIS_ERR_SETTINGS_UNVALIDATED)', () => {
    class Bare {
      token!: string;
    }
    assert.throws(() => new Config({ bare: { token: 'x' } }).section('bare', Bare), {
      code: 'TRELLIS_ERR_SETTINGS_UNVALIDATED',
      message: 'The settings class Bare (config section bare) has no class-validator decorators, so no setting would be checked: decorate its fields (@IsString(), ...)',
    });
  });

  it('leaves Config.string and its ConfigValueError as they were', () => {
    assert.throws(() => new Config({ admin: { token: true } }).string('admin.token'), (error) => error instanceof ConfigValueError && !(error instanceof ConfigSectionError));
  });
});

describe('@Settings', () => {
  @Settings('admin')
  class InjectedAdmin {
    @IsString() @IsNotEmpty() token!: string;
  }

  @Settings('admin', { unknownKeys: 'ignore' })
  class LenientAdmin {
    @IsString() token!: string;
  }

  it('records the section, for the container and tools (not inherited)', () => {
    class Derived extends InjectedAdmin {}
    assert.equal(settingsSectionOf(InjectedAdmin), 'admin');
    assert.equal(settingsSectionOf(AdminSettings), undefined);
    assert.equal(settingsSectionOf(Derived), undefined);
    assert.equal(settingsSectionOf('admin'), undefined);
  });

  it('gives the container a factory of the section, reading the injected Config', () => {
    const provider = settingsProvider(InjectedAdmin)!;
    assert.equal(provider.provide, InjectedAdmin);
    assert.deepEqual(provider.inject, [Config]);
    const admin = provider.useFactory(new Config({ admin: { token: 'abc' } }));
    assert.ok(admin instanceof InjectedAdmin);
    assert.equal(admin.token, 'abc');
    assert.throws(() => provider.useFactory(new Config({ admin: { token: 1 } })), { path: 'admin.token', message: /admin\.token must be a string$/ });
    assert.equal(settingsProvider(AdminSettings), undefined);
  });

  it("applies the decorator's unknownKeys to config.section too", () => {
    const config = new Config({ admin: { token: 'a', extra: 1 } });
    assert.deepEqual({ ...config.section('admin', LenientAdmin) }, { token: 'a' });
    assert.throws(() => config.section('admin', InjectedAdmin), { path: 'admin.extra' });
  });
});
