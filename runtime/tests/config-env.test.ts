import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readConfig } from '../config';
import { addressFromEnvironment, loadDotEnv } from '../environment';
import type { Environment } from '../env-references';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-config-env-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** config.yaml `text` read with `env`. */
const load = (text: string, env: Environment = {}) => readConfig(folder({ 'config.yaml': text }), env);
const issues = (text: string, env: Environment = {}) => load(text, env).issues.map((issue) => `${issue.line}: ${issue.message}`);

describe('${NAME} in config.yaml', () => {
  it('reads values from the environment, typed as YAML would type them when the value is one plain reference', () => {
    const config = load('server: { host: ${HOST}, port: ${PORT} }\nadmin: { token: ${TOKEN}, label: "${PORT}", url: http://${HOST}:${PORT}/x }\n', {
      HOST: '0.0.0.0',
      PORT: '8212',
      TOKEN: 's3cret',
    });
    assert.deepEqual(config.issues, []);
    assert.equal(config.settings.server.port, 8212);
    assert.equal(config.settings.server.host, '0.0.0.0');
    assert.deepEqual(config.values.admin, { token: 's3cret', label: '8212', url: 'http://0.0.0.0:8212/x' });
    assert.equal(load('server: { access_log: ${LOG} }\n', { LOG: 'false' }).settings.server.access_log, false);
  });

  it('falls back to the default after :- (unset or empty) or - (unset only)', () => {
    const text = 'server:\n  port: ${PORT:-8100}\nadmin:\n  a: ${A-fallback}\n  b: ${B:-fallback}\n  c: ${C:-}\n';
    assert.deepEqual(load(text).values.admin, { a: 'fallback', b: 'fallback', c: null });
    assert.equal(load(text).settings.server.port, 8100);
    assert.deepEqual(load(text, { A: '', B: '' }).values.admin, { a: null, b: 'fallback', c: null });
    assert.equal(load(text, { PORT: '9000' }).settings.server.port, 9000);
  });

  it('says which variable is not set, at its line, for each one', () => {
    assert.deepEqual(issues('app: { title: T }\nadmin:\n  token: ${ADMIN_TOKEN}\n  other: x-${OTHER}\n'), [
      '3: ADMIN_TOKEN is not set',
      '4: OTHER is not set',
    ]);
    assert.deepEqual(issues('admin: { token: ${ADMIN_TOKEN} }\n', { ADMIN_TOKEN: '' }), []);
  });

  it('keeps a value from the environment as data: YAML syntax in it builds nothing', () => {
    const config = load('admin: { token: ${TOKEN} }\n', { TOKEN: 'a: b\n- [c]\n{ d: e }, &x *x !!js/function' });
    assert.deepEqual(config.issues, []);
    assert.deepEqual(config.values.admin, { token: 'a: b\n- [c]\n{ d: e }, &x *x !!js/function' });
  });

  it('leaves $${NAME}, keys and comments as written', () => {
    const config = load('# ${NOT_READ} in a comment\nadmin:\n  literal: $${HOME}\n  ${KEY}: 1\n', { KEY: 'k' });
    assert.deepEqual(config.issues.map((i) => i.message).filter((m) => !m.startsWith('unknown')), []);
    assert.deepEqual(config.values.admin, { literal: '${HOME}', '${KEY}': 1 });
  });

  it('refuses a reference it cannot read, at its line', () => {
    assert.deepEqual(issues('admin:\n  a: ${1X}\n  b: ${}\n'), [
      '2: ${1X} is not a reference: write ${NAME} or ${NAME:-default}',
      '3: ${} is not a reference: write ${NAME} or ${NAME:-default}',
    ]);
    assert.deepEqual(issues('admin:\n  a: ok\n  b: ${OPEN\n'), ['3: ${ without its closing }']);
  });

  it('stays linear on a long line of almost-references', () => {
    const started = performance.now();
    assert.equal(issues(`admin: { a: "${'${'.repeat(200_000)}" }\n`).length, 1);
    assert.deepEqual(issues(`admin:\n  a: "${'${'.repeat(200_000)}"\n  b: ${'${x'.repeat(100_000)}\n`), ['2: ${ without its closing }', '3: ${ without its closing }']);
    assert.ok(performance.now() - started < 2_000);
  });
});

describe('the environment of trellis run', () => {
  it('takes HOST and PORT, an empty one counting as unset, and refuses bad ones in one line', () => {
    assert.deepEqual(addressFromEnvironment({ HOST: '0.0.0.0', PORT: '8212' }), { host: '0.0.0.0', port: 8212 });
    assert.deepEqual(addressFromEnvironment({ HOST: '', PORT: '' }), { host: undefined, port: undefined });
    assert.throws(() => addressFromEnvironment({ PORT: '80a' }), /^ProjectError: PORT must be an integer from 0 to 65535, got "80a" \(from the environment or \.env\)$/);
    assert.throws(() => addressFromEnvironment({ PORT: '70000' }), /PORT must be an integer/);
    assert.throws(() => addressFromEnvironment({ HOST: 'a b' }), /^ProjectError: HOST is not a host name or address: "a b"/);
  });

  it('adds what .env sets and the environment does not, and nothing when there is no .env', () => {
    const env: NodeJS.ProcessEnv = { KEPT: 'from the environment' };
    const dir = folder({ '.env': '# comment\nKEPT=from .env\nADDED="two words"\nexport EXPORTED=1\n' });
    assert.deepEqual(loadDotEnv(dir, env), ['ADDED', 'EXPORTED']);
    assert.deepEqual(env, { KEPT: 'from the environment', ADDED: 'two words', EXPORTED: '1' });
    assert.deepEqual(loadDotEnv(folder({}), env), []);
  });
});
