import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { packageRoot } from '../paths';

const ENTRY_POINTS = { '.': 'index', './param': 'param', './testing': 'testing', './security': 'security', './plugins': 'plugins', './database': 'database', './auth': 'auth', './websocket': 'websocket' };

/**
 * Gives a generated project the `node_modules` an `npm install` would, for type checking, in milliseconds:
 * `trellis` as a package whose types re-export this checkout's framework sources (`exports`, as the published
 * package has), and links to this checkout's copies of the other packages the project lists. The real
 * install from a packed tarball is the end-to-end test's part.
 */
export function linkInstall(dir: string, packages: readonly string[]): void {
  const trellis = join(dir, 'node_modules', 'trellis');
  mkdirSync(trellis, { recursive: true });
  const exports = Object.fromEntries(Object.entries(ENTRY_POINTS).map(([key, file]) => [key, { types: `./${file}.d.ts` }]));
  writeFileSync(join(trellis, 'package.json'), JSON.stringify({ name: 'trellis', version: '0.0.0-linked', exports }));
  for (const file of Object.values(ENTRY_POINTS)) {
    writeFileSync(join(trellis, `${file}.d.ts`), `export * from ${JSON.stringify(join(packageRoot, 'framework', file))};\n`);
  }
  for (const name of packages.filter((name) => name !== 'trellis')) {
    const link = join(dir, 'node_modules', ...name.split('/'));
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(packageRoot, 'node_modules', ...name.split('/')), link, 'junction');
  }
}
