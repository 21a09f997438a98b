import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeRuntimeBundle } from '../build/runtime-bundle';
import { http, ROOT } from './run-support';

/**
 * trellis as its package ships it, in `dir`: dist/ compiled (without source maps), package.json, and its
 * dependencies linked from this checkout; with `cli`, also the runtime bundle `npm pack` writes, and trellis-cli
 * installed beside it as npm would (`<dir>/node_modules/trellis-cli`, finding trellis as `<dir>/node_modules/trellis`):
 * `node stagedCli(dir)` is the installed CLI.
 */
export async function stageTrellis(dir: string, { cli = false } = {}): Promise<void> {
  const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', join(dir, 'dist'), '--sourceMap', 'false'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
  cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  if (!cli) return symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const modules = join(dir, 'node_modules');
  mkdirSync(modules);
  for (const name of readdirSync(join(ROOT, 'node_modules')).filter((name) => !name.startsWith('.'))) symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
  symlinkSync(dir, join(modules, 'trellis'));
  const tool = join(modules, 'trellis-cli');
  cpSync(join(ROOT, 'cli', 'package.json'), join(tool, 'package.json'));
  for (const path of ['bin', 'register.js', 'blueprints', join('cli', 'loader')]) cpSync(join(ROOT, path), join(tool, path), { recursive: true });
  for (const path of [join('dist', 'cli'), join('dist', 'generators')]) cpSync(join(dir, path), join(tool, path), { recursive: true });
  await writeRuntimeBundle(require('esbuild'), dir);
}

/** The bin of the trellis-cli that `stageTrellis(dir, { cli: true })` installs. */
export const stagedCli = (dir: string) => join(dir, 'node_modules', 'trellis-cli', 'bin', 'trellis.js');

/** A `node_modules` for the project: trellis (staged) and the libraries the sample imports. */
export function linkDependencies(project: string, trellis: string): void {
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(trellis, join(project, 'node_modules', 'trellis'));
  for (const name of ['class-validator', 'class-transformer', 'reflect-metadata', '@types', 'esbuild']) {
    symlinkSync(join(ROOT, 'node_modules', name), join(project, 'node_modules', name));
  }
}

/** Status, content type and body of each of a sample project's answers, in order (each process gets the same sequence). */
export async function sampleAnswers(url: string, token: string): Promise<string[]> {
  const auth = { authorization: `Bearer ${token}` };
  const json = { 'content-type': 'application/json' };
  const requests: Array<[string, RequestInit?]> = [
    ['/tasks'],
    ['/tasks/1'],
    ['/tasks/999'],
    ['/tasks', { method: 'POST', headers: json, body: JSON.stringify({ title: 'Ship the build' }) }],
    ['/tasks', { method: 'POST', headers: json, body: JSON.stringify({ title: 42 }) }],
    ['/tasks/3'],
    ['/products?page=1&per_page=2'],
    ['/products/search?q=a'],
    ['/users/me'],
    ['/users/1/posts'],
    ['/admin/stats'],
    ['/admin/stats', { headers: auth }],
    ['/'],
    ['/home', { redirect: 'manual' }],
    ['/static/style.css'],
    ['/favicon.ico'],
    ['/nowhere'],
    ['/docs/openapi.json'],
    ['/docs/assets/swagger-ui.css'],
    ['/docs/assets/redoc.standalone.js'],
  ];
  const lines: string[] = [];
  for (const [path, init] of requests) {
    const { status, headers, text } = await http(`${url}${path}`, init);
    const type = headers.get('content-type') ?? '';
    const long = /^(image\/|text\/css|text\/javascript|application\/javascript)/.test(type);
    lines.push(`${init?.method ?? 'GET'} ${path} -> ${status} ${type} ${long ? `${text.length} chars` : text}`);
  }
  return lines;
}
