#!/usr/bin/env node
'use strict';
// Files in import cycles, type-only imports included, per folder of a trellis checkout (tests and fixtures left out),
// from dependency-cruiser's module graph: a cycle is a strongly connected component of more than one file.
//
//   node bench/import-cycles.js [dir]     (dir: a checkout, this one by default)
const { existsSync } = require('node:fs');
const { join, resolve } = require('node:path');

const FOLDERS = ['framework', 'runtime', 'cli', 'generators'];
const isTest = (file) => /(^|\/)(tests?|fixtures|test-support)\//.test(file) || file.endsWith('.test.ts');

/** Tarjan's strongly connected components of `edges` (file -> files), those of more than one file. */
function cycles(edges) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (file) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const to of edges.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file), low.get(to)));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file), index.get(to)));
    }
    if (low.get(file) !== index.get(file)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) found.push(component);
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return found.sort((a, b) => b.length - a.length);
}

async function main() {
  const dir = resolve(process.argv[2] ?? join(__dirname, '..'));
  const { cruise } = await import('dependency-cruiser');
  const { default: extractTSConfig } = await import('dependency-cruiser/config-utl/extract-ts-config');
  process.chdir(dir);
  const folders = FOLDERS.filter((folder) => existsSync(folder));
  const { output } = /** @type {{ output: import('dependency-cruiser').ICruiseResult }} */ (await cruise(
    folders,
    {
      tsPreCompilationDeps: true,
      tsConfig: { fileName: 'tsconfig.json' },
      doNotFollow: { path: 'node_modules' },
      exclude: { path: 'node_modules|(^|/)dist/' },
    },
    undefined,
    { tsConfig: extractTSConfig('tsconfig.json') },
  ));
  const own = (file) => folders.some((folder) => file.startsWith(`${folder}/`)) && !isTest(file) && /\.[cm]?ts$/.test(file);
  const edges = new Map();
  /** file -> imported files whose every import is type-only */
  const typeOnly = new Map();
  for (const module of output.modules.filter((m) => own(m.source))) {
    const targets = module.dependencies.filter((dependency) => own(dependency.resolved));
    const files = [...new Set(targets.map((dependency) => dependency.resolved))];
    edges.set(module.source, files);
    typeOnly.set(module.source, files.filter((to) => targets.filter((d) => d.resolved === to).every((d) => d.dependencyTypes.includes('type-only'))));
  }
  const components = cycles(edges);
  const inCycles = new Set(components.flat());
  const row = (name, files) => [
    name,
    files.length,
    files.reduce((sum, file) => sum + edges.get(file).length, 0),
    files.reduce((sum, file) => sum + typeOnly.get(file).length, 0),
    files.filter((file) => inCycles.has(file)).length,
    Math.max(0, ...components.map((component) => component.filter((file) => files.includes(file)).length)),
  ];
  const all = [...edges.keys()];
  const rows = [...folders.map((folder) => row(folder, all.filter((file) => file.startsWith(`${folder}/`)))), row('all', all)];
  const cell = (value, i) => (i === 0 ? String(value).padEnd(12) : String(value).padStart(i === 5 ? 15 : 11));
  console.log(`import cycles in ${dir} (type-only imports included; tests left out; an import = one file importing another)`);
  console.log('');
  console.log(['folder', 'files', 'imports', 'type-only', 'in cycles', 'largest cycle'].map(cell).join(''));
  for (const values of rows) console.log(values.map(cell).join(''));
  if (components.length > 0) {
    console.log('');
    console.log(`cycles: ${components.map((component) => component.length).join(', ')} files`);
    for (const component of components.slice(0, 5)) console.log(`  ${component.length}: ${component.slice(0, 5).sort().join(' ')}${component.length > 5 ? ' ...' : ''}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
