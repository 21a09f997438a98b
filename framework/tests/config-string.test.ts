import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Config } from '../index';
import { ConfigValueError } from '../config';
import { TrellisError } from '../framework-error';

describe('Config.string', () => {
  it('returns a non-empty string, and the fallback only when the setting is absent', () => {
    const config = new Config({ admin: { token: 's3cret' }, other: {} });
    assert.equal(config.string('admin.token'), 's3cret');
    assert.equal(config.string('other.token', 'dflt'), 'dflt');
    assert.equal(config.string('nowhere.at.all', undefined), undefined);
  });

  it('throws TRELLIS_ERR_CONFIG_VALUE naming the path, and the kind (never the value) of anything else', () => {
    for (const [token, got] of [
      [true, 'true'],
      [false, 'false'],
      [['a', 'b'], 'a list'],
      [{ x: 1 }, 'a mapping'],
      [12345, 'a number'],
      ['', 'an empty string'],
      [null, 'null (no value)'],
    ] as const) {
      const config = new Config({ admin: { token } });
      for (const read of [() => config.string('admin.token'), () => config.string('admin.token', 'fallback')]) {
        assert.throws(read, (error: unknown) => {
          assert.ok(error instanceof ConfigValueError && error instanceof TrellisError);
          assert.equal(error.code, 'TRELLIS_ERR_CONFIG_VALUE');
          assert.equal(error.path, 'admin.token');
          assert.equal(error.message, `admin.token must be a non-empty string, got ${got}`);
          return true;
        });
      }
    }
    assert.throws(() => new Config({}).string('admin.token'), { path: 'admin.token', message: 'admin.token must be a non-empty string, got nothing (it is not set)' });
  });
});
