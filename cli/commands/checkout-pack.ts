import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { trellisManifest } from '../../generators/dependencies';
import { packageRoot } from '../../generators/paths';
import { CliError } from '../cli-error';
import { messages } from '../messages';

const PACK_SCRIPT = join('scripts', 'pack.js');

/**
 * The checkout this CLI runs from (its TypeScript sources, as bin/trellis.js runs them), or undefined for an
 * installed trellis-cli. A checkout is not on the registry under its version: `create` depends on tarballs
 * packed from it instead.
 */
export function checkoutRoot(): string | undefined {
  return existsSync(join(packageRoot, 'cli', 'main.ts')) && existsSync(join(packageRoot, PACK_SCRIPT)) ? packageRoot : undefined;
}

/**
 * Packs the checkout with scripts/pack.js (`npm run pack`: trellis and trellis-cli, cached by a hash of their
 * sources) and resolves to the trellis tarball's path; trellis-cli's is beside it.
 */
export async function packCheckout(root: string): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [join(root, PACK_SCRIPT)], { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    const folder = stdout.trim().split('\n').pop() ?? '';
    return join(folder, `trellis-${trellisManifest.version}.tgz`);
  } catch (error) {
    const { stderr, message } = error as Error & { stderr?: string };
    const reason = (stderr ?? '').trim().split('\n').filter(Boolean).pop() ?? message;
    throw new CliError(messages.create.packFailed(root, reason));
  }
}
