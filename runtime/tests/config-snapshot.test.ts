import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parse } from 'yaml';
import { readConfig } from '../config';
import { createConfigSnapshot, readConfigSnapshot } from '../config-snapshot';
import type { Environment } from '../env-lookup';
import { coreScalar } from '../yaml-scalar';
import { parseYaml } from '../yaml-source';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Every path to a key or list item of `value`, and one past each leaf. */
function pathsOf(value: unknown, path: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [[...path, 'missing']];
  const keys = Array.isArray(value) ? value.map((_, i) => String(i)) : Object.keys(value);
  return keys.flatMap((key) => [[...path, key], ...pathsOf((value as Record<string, unknown>)[key], [...path, key])]);
}

/** The snapshot read with `env` answers as the parser does: value, issues, and the line of every path. */
function assertSameAsParser(source: string, env: Environment): void {
  const snapshot = createConfigSnapshot(source);
  assert.ok(snapshot, `a snapshot of:\n${source}`);
  const fromSnapshot = readConfigSnapshot(JSON.parse(JSON.stringify(snapshot)), env);
  const parsed = parseYaml(source, env);
  assert.deepEqual(fromSnapshot.issues, parsed.issues, source);
  assert.deepEqual(fromSnapshot.value, parsed.value, source);
  const paths = [[], ['nowhere'], ...pathsOf(parse(source.replace(/\$\{[^}]*\}/g, 'x')))];
  for (const path of paths) assert.equal(fromSnapshot.lineOf(path), parsed.lineOf(path), `${path.join('.')} in\n${source}`);
}

const SOURCES = [
  'app: { title: Demo API, version: 0.1.0 }\nserver:\n  host: localhost\n  port: 8000\nmiddleware: [timing, auth/jwt]\n',
  'server: { host: ${HOST}, port: ${PORT} }\nadmin: { token: ${TOKEN}, label: "${PORT}", url: http://${HOST}:${PORT}/x }\n',
  'server:\n  port: ${PORT:-8100}\nadmin:\n  a: ${A-fallback}\n  b: ${B:-fallback}\n  c: ${C:-}\n  flag: ${FLAG:-true}\n',
  'app: { title: T }\nadmin:\n  token: ${ADMIN_TOKEN}\n  other: x-${OTHER}\n  list:\n    - ${ONE}\n    - \'${TWO}\'\n    - plain\n',
  '# ${NOT_READ} in a comment\nadmin:\n  literal: $${HOME}\n  mixed: a $${B} ${C:-c}\n  ${KEY}: 1\n',
  'base: &base { token: ${TOKEN:-t}, n: 1 }\nfirst: *base\nsecond: { inner: *base }\nlist: [*base, 2]\n',
  'empty:\nnested:\n  - a: 1\n    b: [x, { c: ${C:-3} }]\n  - 2\n"quoted key": |\n  block ${NAME:-text}\n  second line\n',
];

const ENVIRONMENTS: Environment[] = [
  {},
  { HOST: '0.0.0.0', PORT: '8212', TOKEN: 's3cret', ADMIN_TOKEN: 'a', OTHER: 'o', ONE: '1', TWO: '2', C: '', FLAG: 'no' },
  { PORT: '0x1F', A: '', B: '', TOKEN: 'a: b\n- [c]', ONE: '.inf', NAME: 'from env', ADMIN_TOKEN: '' },
];

describe("config.yaml's snapshot in a build", () => {
  it('reads as the parser reads the file, in every environment: values, types, issues and lines', () => {
    for (const source of SOURCES) for (const env of ENVIRONMENTS) assertSameAsParser(source, env);
  });

  it('is left out for a file with an issue, and for a value JSON cannot hold (the parser reads those at start)', () => {
    assert.equal(createConfigSnapshot('a: [1\n'), undefined);
    assert.equal(createConfigSnapshot('a: ${1X}\n'), undefined);
    assert.equal(createConfigSnapshot('a: !!js/function x\n'), undefined);
    assert.equal(createConfigSnapshot('a: .nan\n'), undefined);
    assert.equal(createConfigSnapshot('a: -0\n'), undefined);
  });

  it('is used by readConfig only while config.yaml holds the text it was made from', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trellis-snapshot-'));
    dirs.push(dir);
    const source = 'app: { title: ${TITLE:-Built} }\n';
    writeFileSync(join(dir, 'config.yaml'), source);
    const snapshot = createConfigSnapshot(source)!;
    const stale = { ...snapshot, value: { app: { title: 'from the snapshot' } } };
    assert.equal(readConfig(dir, {}, stale).settings.app.title, 'from the snapshot');
    writeFileSync(join(dir, 'config.yaml'), 'app: { title: Edited }\n');
    assert.equal(readConfig(dir, {}, stale).settings.app.title, 'Edited');
    assert.equal(readConfig(dir, { TITLE: 'From env' }, createConfigSnapshot('app: { title: Edited }\n')).settings.app.title, 'Edited');
  });
});

describe('coreScalar', () => {
  it("types a plain scalar's text as the core schema of the yaml package does", () => {
    const texts = ['', '~', 'null', 'Null', 'NULL', 'nULL', 'true', 'True', 'TRUE', 'tRUE', 'False', '0o17', '0o8', '017', '+5', '-0', '0x1F',
      '0X1f', '.inf', '-.Inf', '+.INF', '.nan', '.NaN', 'NaN', '1.5', '1.', '.5', '1e3', '-1.5e+3', '1_000', '8212', '3.14.15', 'inf', 's3cret'];
    for (const text of texts) {
      const value: unknown = parse(text, { schema: 'core' });
      const expected = value === null || typeof value === 'number' || typeof value === 'boolean' ? value : text;
      assert.ok(Object.is(coreScalar(text), expected), `${JSON.stringify(text)}: ${String(coreScalar(text))} !== ${String(expected)}`);
    }
  });

  it('keeps text that would be YAML syntax on its own line (a document marker) as text', () => {
    assert.equal(coreScalar('---'), '---');
    assert.equal(coreScalar('...'), '...');
  });
});
