#!/usr/bin/env node
'use strict';
// The names each package entry of a trellis checkout exports (tsconfig.json's paths: public and private ones), values and types apart, read from the TypeScript
// source entries with the compiler's checker (a class or a function is a value; an interface, a type alias or a
// name re-exported with `export type` is a type).
//
//   node bench/export-counts.js [dir] [--list]
const { existsSync, readFileSync } = require('node:fs');
const { join, resolve } = require('node:path');

/** The package's entries, as tsconfig.json's paths map them to source files; `private` when package.json does not export it. */
function entriesOf(dir) {
  const paths = JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8')).compilerOptions.paths;
  const exported = Object.keys(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).exports ?? {});
  return Object.entries(paths)
    .filter(([, [file]]) => file.endsWith('.ts'))
    .map(([name, [file]]) => {
      const subpath = name === 'trellis' ? '.' : `./${name.slice('trellis/'.length)}`;
      return [exported.includes(subpath) ? name : `${name} (private)`, file.replace(/^\.\//, '')];
    });
}

function main() {
  const args = process.argv.slice(2);
  const list = args.includes('--list');
  const dir = resolve(args.find((arg) => !arg.startsWith('--')) ?? join(__dirname, '..'));
  const ts = require(require.resolve('typescript', { paths: [dir, __dirname] }));
  const config = ts.getParsedCommandLineOfConfigFile(join(dir, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const entries = entriesOf(dir).filter(([, file]) => existsSync(join(dir, file)));
  const program = ts.createProgram(entries.map(([, file]) => join(dir, file)), { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();

  /** Whether `symbol` reaches its declaration through an `export type` / `import type` somewhere on the way. */
  const typeOnly = (symbol) => {
    for (let alias = symbol; alias.flags & ts.SymbolFlags.Alias; alias = checker.getImmediateAliasedSymbol(alias)) {
      if ((alias.declarations ?? []).some((declaration) => ts.isTypeOnlyImportOrExportDeclaration(declaration))) return true;
    }
    return false;
  };

  console.log(`exports of the package entries in ${dir} (source entries, TypeScript's checker)`);
  console.log('');
  console.log('| entry | file | values | types | names |');
  console.log('|---|---|---:|---:|---:|');
  const listing = [];
  for (const [name, file] of entries) {
    const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(join(dir, file)));
    const exported = moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : [];
    const values = [];
    const types = [];
    for (const symbol of exported) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      (target.flags & ts.SymbolFlags.Value && !typeOnly(symbol) ? values : types).push(symbol.name);
    }
    console.log(`| ${name} | ${file} | ${values.length} | ${types.length} | ${exported.length} |`);
    listing.push(`${name}\n  values: ${values.sort().join(', ')}\n  types: ${types.sort().join(', ')}`);
  }
  if (list) console.log(`\n${listing.join('\n')}`);
}

main();
