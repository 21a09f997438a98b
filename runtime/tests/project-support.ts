import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProject } from '../load';
import { ProjectError } from '../project-error';
import { copyFixture } from './support';

/** A copy of the healthy fixture with extra files written into it. */
export function healthyWith(files: Record<string, string>): string {
  const dir = copyFixture('healthy');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

/** The message of the ProjectError loading `dir` throws, with the folder's path left out. */
export function loadError(dir: string): string {
  try {
    loadProject(dir);
  } catch (error) {
    assert.ok(error instanceof ProjectError, String(error));
    return error.message.split(`${dir}/`).join('');
  }
  assert.fail('the project loaded');
}
