import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { packageRoot } from '../../generators/paths';
import { CliError } from '../cli-error';
import { messages } from '../messages';
import { openProject } from 'trellis/internal';

const REGISTER = join(packageRoot, 'register.js');
const TEST_FILE = /\.test\.(ts|js)$/;

/** `tests/**\/*.test.{ts,js}` of a project, relative to it, sorted. */
export function projectTestFiles(dir: string): string[] {
  const root = join(dir, 'tests');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && TEST_FILE.test(entry.name) && !entry.parentPath.split(sep).includes('node_modules'))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * Runs a project's tests with node's test runner in the project folder, through the same loader as
 * `trellis run` (TypeScript, and `trellis`, `class-validator`... resolved to the CLI's copies), so a
 * generated project's tests pass without an `npm install`. Resolves to the runner's exit code.
 */
export function runProjectTests(path: string): Promise<number> {
  const project = openProject(path);
  const files = projectTestFiles(project.dir);
  if (!files.length) throw new CliError(messages.test.noTests(join(path, 'tests')));
  return new Promise((resolve, reject) => {
    // Run as a top-level runner even when started from inside another test run (which sets NODE_TEST_CONTEXT).
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const child = spawn(process.execPath, ['--require', REGISTER, '--test', ...files], { cwd: project.dir, stdio: 'inherit', env });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGINT', forward).on('SIGTERM', forward);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward).off('SIGTERM', forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}
