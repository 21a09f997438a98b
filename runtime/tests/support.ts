import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The repository's root folder. */
export const ROOT = join(__dirname, '..', '..');
/** Small projects (`healthy`, `messy`, `duplicate`) the runtime's and the CLI's tests serve. */
export const FIXTURES = join(__dirname, 'fixtures');

const copies: string[] = [];

/** A copy of `fixtures/<name>` in a fresh temporary folder; `cleanup()` removes every copy. */
export function copyFixture(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-run-test-'));
  copies.push(dir);
  const target = join(dir, name);
  cpSync(join(FIXTURES, name), target, { recursive: true });
  return target;
}

/** Removes every copy made by {@link copyFixture}. */
export function cleanup(): void {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
}
