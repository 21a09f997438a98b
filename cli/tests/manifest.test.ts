import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from './run-support';

// cli/package.json is trellis-cli's manifest (scripts/pack.js packs it with the compiled cli/ and generators/):
// its dependencies are what their shipped code imports, at the versions the repository installs and tests.

interface Manifest {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Manifest;
const root = read('package.json');
const cli = read(join('cli', 'package.json'));
/** Resolved from the project (its devDependencies), never from the CLI's own folder. */
const FROM_THE_PROJECT = ['@swc/core', 'esbuild', 'typescript', 'ts-json-schema-generator'];
/** Optional peers: one command alone uses each (`trellis client`), which names the install when it is missing. */
const OPTIONAL_PEERS = ['openapi-typescript'];

/** The packages the shipped (non-test) TypeScript files under `dirs` import, require or resolve. */
function importedPackages(dirs: string[]): Set<string> {
  const names = new Set<string>();
  for (const dir of dirs) {
    for (const name of readdirSync(join(ROOT, dir), { recursive: true }) as string[]) {
      if (!name.endsWith('.ts') || name.endsWith('.d.ts') || /(^|[/\\])(tests|test-support)[/\\]/.test(name)) continue;
      const text = readFileSync(join(ROOT, dir, name), 'utf8');
      // `from` only in an import or export statement (its first line, or the `}` line closing its list): a
      // generator's output text, such as `"import type { Generated } from 'kysely'"`, is not an import.
      const ids = [
        ...text.matchAll(/^\s*(?:import|export|\})[^'"\n]*\bfrom '([^'.][^']*)'/gm),
        ...text.matchAll(/(?:\bimport\(|\brequire\(|\bresolve\()'([^'.][^']*)'/g),
      ];
      for (const [, id] of ids) {
        if (id.startsWith('node:')) continue;
        names.add(id.startsWith('@') ? id.split('/').slice(0, 2).join('/') : id.split('/')[0]);
      }
    }
  }
  return names;
}

describe("trellis-cli's manifest (cli/package.json)", () => {
  it('has the version of trellis, and trellis (the project\'s own) as its peer, besides the optional ones', () => {
    assert.equal(cli.version, root.version);
    assert.deepEqual(cli.peerDependencies, { trellis: `^${root.version}`, 'openapi-typescript': `~${root.devDependencies['openapi-typescript']}` });
    assert.deepEqual(cli.peerDependenciesMeta, Object.fromEntries(OPTIONAL_PEERS.map((name) => [name, { optional: true }])));
  });

  it('depends on exactly what cli/ and generators/ import, besides trellis and the project\'s compilers, at the repository\'s versions', () => {
    const all = importedPackages(['cli', 'generators']);
    for (const name of OPTIONAL_PEERS) assert.ok(all.has(name), `${name} is an optional peer that nothing imports`);
    const imported = [...all].filter((name) => name !== 'trellis' && !FROM_THE_PROJECT.includes(name) && !OPTIONAL_PEERS.includes(name));
    assert.deepEqual(Object.keys(cli.dependencies).sort(), imported.sort());
    for (const [name, range] of Object.entries(cli.dependencies)) assert.equal(range, root.devDependencies[name], name);
  });

  it('lists what generated projects get at the repository\'s versions (generators/dependencies.ts reads them from it)', () => {
    for (const [name, range] of Object.entries(cli.devDependencies)) assert.equal(range, root.dependencies[name] ?? root.devDependencies[name], name);
  });

  it('leaves trellis\'s dependencies to what framework/ and runtime/ import: nothing only the CLI uses', () => {
    const framework = importedPackages(['framework', 'runtime']);
    for (const name of Object.keys(cli.dependencies)) {
      assert.ok(!(name in root.dependencies) || framework.has(name), `${name} is a dependency of trellis`);
    }
  });
});
