import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { planBlueprint } from './blueprint';
import { GeneratorError } from './generator-error';
import { artifactNames, checkBasePath, type ArtifactKind, type ArtifactNames } from './names';
import { runBlueprint, type WrittenFile } from './plop-runner';

export interface AddRequest {
  kind: ArtifactKind;
  /** What the user typed: `orders`, `order-items`, `billing_service`. */
  name: string;
  /** The project folder (it holds `config.yaml`), as the user gave it: relative to `cwd`, or absolute. */
  dir: string;
  /** What `dir` is relative to; the process's current folder by default. */
  cwd?: string;
  /** A router's base path instead of `/<name>`. */
  path?: string;
  /** Report the file, write nothing. */
  dryRun?: boolean;
}

export interface AddResult {
  root: string;
  names: ArtifactNames;
  files: WrittenFile[];
}

/**
 * Renders one router, service or middleware into a project. Refuses (before writing) a folder that is not
 * a trellis project and a file that already exists.
 *
 * @example
 * ```ts
 * await addArtifact({ kind: 'router', name: 'orders', dir: 'shop' }); // shop/routers/orders.ts, GET /orders
 * ```
 */
export async function addArtifact(request: AddRequest): Promise<AddResult> {
  const names = artifactNames(request.kind, request.name);
  if (request.path !== undefined) names.basePath = checkBasePath(request.path);
  const root = resolve(request.cwd ?? process.cwd(), request.dir);
  if (!statSync(join(root, 'config.yaml'), { throwIfNoEntry: false })?.isFile()) {
    throw new GeneratorError('not-a-project', root);
  }
  const files = planBlueprint(request.kind, { name: names.stem });
  for (const file of files) {
    if (existsSync(join(root, file.target))) throw new GeneratorError('file-exists', join(request.dir, file.target));
  }
  const data = { ...names, kind: request.kind };
  if (!request.dryRun) return { root, names, files: await runBlueprint(request.kind, files, data, root) };
  const scratch = mkdtempSync(join(tmpdir(), 'trellis-'));
  try {
    return { root, names, files: await runBlueprint(request.kind, files, data, scratch) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
