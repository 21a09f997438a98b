import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = resolve(__dirname, '..', '..');

/** Runs `script` (JavaScript, requiring the runtime first or not) in a fresh process; returns its JSON output. */
function inFreshProcess(script: string): Record<string, unknown> {
  const result = spawnSync(process.execPath, ['-r', './register.js', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

const CHECK = (runtimeFirst: boolean) => `
  ${runtimeFirst ? "require('./runtime/index.ts');" : ''}
  const { dirname } = require('node:path');
  const file = require.resolve('libphonenumber-js/max', { paths: [dirname(require.resolve('class-validator/package.json'))] });
  // Files of libphonenumber-js whose code ran (the stand-in has none).
  const loaded = () => Object.keys(require.cache).filter((name) => name.includes('libphonenumber-js') && name !== file);
  const validator = require('class-validator');
  const atStart = loaded().length;
  class Contact {}
  validator.IsPhoneNumber('US')(Contact.prototype, 'phone');
  const problems = (phone) => validator.validateSync(Object.assign(new Contact(), { phone })).length;
  const checked = [problems('+1 213 373 4253'), problems('(213) 373-4253'), problems('12'), problems('not a number')];
  const max = require(file);
  const parsed = max.parsePhoneNumber('+12133734253');
  console.log(JSON.stringify({
    atStart,
    afterCheck: loaded().length > 0,
    checked,
    call: max('+12133734253').country,
    parsed: [parsed.number, parsed instanceof max.PhoneNumber, typeof max.default, Object.keys(max).includes('isValidPhoneNumber')],
  }));
`;

describe('libphonenumber-js deferred by the runtime', () => {
  it('is not loaded with class-validator, and loads on the first phone number checked, which validates as before', () => {
    const expected = { checked: [0, 0, 1, 1], call: 'US', parsed: ['+12133734253', true, 'function', true] };
    assert.deepEqual(inFreshProcess(CHECK(true)), { atStart: 0, afterCheck: true, ...expected });
    // Without the runtime, class-validator loads it at once (what the runtime spares a start).
    const eager = inFreshProcess(CHECK(false));
    assert.ok((eager.atStart as number) > 0);
    assert.deepEqual({ ...eager, atStart: 0 }, { atStart: 0, afterCheck: true, ...expected });
  });

  it('leaves a libphonenumber-js already loaded as it is', () => {
    const result = inFreshProcess(`
      const { dirname } = require('node:path');
      const file = require.resolve('libphonenumber-js/max', { paths: [dirname(require.resolve('class-validator/package.json'))] });
      const before = require(file);
      require('./runtime/index.ts');
      console.log(JSON.stringify({ same: require(file) === before }));
    `);
    assert.deepEqual(result, { same: true });
  });
});
