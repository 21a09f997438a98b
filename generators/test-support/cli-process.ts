import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../paths';

export interface CliOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `bin/trellis.js` with `args` in `cwd`, as a user would (no terminal attached). */
export function runCli(args: string[], cwd: string): Promise<CliOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(packageRoot, 'bin', 'trellis.js'), ...args], {
      cwd,
      env: { ...process.env, NODE_TEST_CONTEXT: undefined, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', reject).on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
