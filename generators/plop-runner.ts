import { constants, copyFileSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { ActionType, CustomActionConfig, NodePlopAPI } from 'node-plop';
import type { BlueprintFile, BlueprintName } from './blueprint';
import { GeneratorError } from './generator-error';

/** A file a generator wrote: its path relative to the destination, and its size. */
export interface WrittenFile {
  path: string;
  bytes: number;
}

/**
 * Writes a planned blueprint into `destination` through a node-plop generator, one action per file: plop's
 * `add` renders `*.hbs` templates with `data` (handlebars; values are prepared in code, see project-data.ts),
 * a `copy` action copies other files byte for byte. Neither overwrites an existing file.
 * Throws `GeneratorError('render-failed')` naming the first file that failed.
 *
 * @example
 * ```ts
 * await runBlueprint('router', planBlueprint('router', { name: 'orders' }), data, '/work/shop');
 * ```
 */
export async function runBlueprint(
  blueprint: BlueprintName,
  files: readonly BlueprintFile[],
  data: object,
  destination: string,
): Promise<WrittenFile[]> {
  const plop = await createPlop(destination);
  const generator = plop.setGenerator(blueprint, {
    description: `the ${blueprint} blueprint`,
    prompts: [],
    actions: files.map(toAction),
  });
  const { changes, failures } = await generator.runActions({ ...data });
  if (failures.length > 0) {
    // Actions run in order and stop at the first failure, so it belongs to the file after the last success.
    const failed = files[changes.length]?.target ?? blueprint;
    const failure = failures[0] as { error?: string; message?: string };
    throw new GeneratorError('render-failed', failed, String(failure.error ?? failure.message).split('\n')[0]);
  }
  return files.map((file) => ({ path: file.target, bytes: statSync(join(destination, file.target)).size }));
}

async function createPlop(destination: string): Promise<NodePlopAPI> {
  // node-plop is ESM and takes ~0.4 s to load: only commands that generate pay for it.
  const { default: nodePlop } = await import('node-plop');
  const plop = await nodePlop('', { destBasePath: destination, force: false });
  plop.setActionType('copy', copyAction);
  return plop;
}

function toAction(file: BlueprintFile): ActionType {
  return file.template
    ? { type: 'add', path: file.target, templateFile: file.source, abortOnFail: true }
    : ({ type: 'copy', path: file.target, source: file.source, abortOnFail: true } as CustomActionConfig<'copy'>);
}

async function copyAction(_data: object, config: CustomActionConfig<string>, plop: NodePlopAPI): Promise<string> {
  const target = resolve(plop.getDestBasePath(), config.path as string);
  mkdirSync(dirname(target), { recursive: true });
  try {
    copyFileSync(config.source as string, target, constants.COPYFILE_EXCL);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new Error(`File already exists -> ${target}`);
    throw error;
  }
  return config.path as string;
}
