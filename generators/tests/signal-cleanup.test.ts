import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { packageRoot } from '../paths';
import { removedOnSignal } from '../signal-cleanup';
import { tempDir } from '../test-support/tree';

describe('removedOnSignal', () => {
  it('removes the folder and ends the process by the same signal when interrupted', () => {
    const dir = tempDir();
    try {
      const staging = join(dir.path, '.demo-trellis-x');
      mkdirSync(staging);
      writeFileSync(join(staging, 'config.yaml'), 'half-written');
      const script = `
        const { removedOnSignal } = require(${JSON.stringify(join(packageRoot, 'generators', 'signal-cleanup.ts'))});
        removedOnSignal(${JSON.stringify(staging)}, () => new Promise(() => process.kill(process.pid, 'SIGTERM')));
        setTimeout(() => {}, 10000);`;
      const child = spawnSync(process.execPath, ['--require', join(packageRoot, 'register.js'), '-e', script], { timeout: 20_000 });
      assert.equal(child.signal, 'SIGTERM');
      assert.equal(existsSync(staging), false);
    } finally {
      dir.remove();
    }
  });

  it('leaves the folder and the signal handlers alone when the work finishes', async () => {
    const dir = tempDir();
    try {
      const listeners = process.listenerCount('SIGINT');
      assert.equal(await removedOnSignal(dir.path, async () => 'done'), 'done');
      await assert.rejects(removedOnSignal(dir.path, async () => Promise.reject(new Error('boom'))), /boom/);
      assert.equal(process.listenerCount('SIGINT'), listeners);
      assert.ok(existsSync(dir.path));
    } finally {
      dir.remove();
    }
  });
});
