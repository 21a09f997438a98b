import { readdirSync } from 'node:fs';
import { join, posix, sep } from 'node:path';
import { blueprintsDir } from './paths';

/** One file of a blueprint and where it goes in the generated project. */
export interface BlueprintFile {
  /** Absolute path of the blueprint file. */
  source: string;
  /** Path in the generated project, `/`-separated: placeholders filled, `.hbs` dropped, `_x` -> `.x`. */
  target: string;
  /** `*.hbs` files are rendered with the generator's data; every other file is copied byte for byte. */
  template: boolean;
}

/** The blueprints, one folder each under `blueprints/`. */
export type BlueprintName = 'project' | 'router' | 'service' | 'middleware';

const PLACEHOLDER = /__([a-zA-Z]+)__/g;

/**
 * Lists a blueprint's files in a stable order, mapping each path: `__name__` placeholders take values from
 * `names`, a `.hbs` suffix marks a template, and a leading `_` marks a dotfile (`_gitignore` -> `.gitignore`,
 * stored so because npm drops `.gitignore` from published packages).
 *
 * @example
 * ```ts
 * planBlueprint('router', { name: 'orders' });
 * // [{ source: '.../blueprints/router/routers/__name__.ts.hbs', target: 'routers/orders.ts', template: true }]
 * ```
 */
export function planBlueprint(blueprint: BlueprintName, names: Record<string, string> = {}): BlueprintFile[] {
  const root = join(blueprintsDir, blueprint);
  return listFiles(root).map((relative) => {
    const template = relative.endsWith('.hbs');
    const segments = (template ? relative.slice(0, -4) : relative).split('/').map((segment) => {
      const dotted = /^_(?!_)/.test(segment) ? `.${segment.slice(1)}` : segment;
      return dotted.replace(PLACEHOLDER, (whole, key: string) => {
        if (names[key] === undefined) throw new Error(`Blueprint ${blueprint}: no value for ${whole} in ${relative}`);
        return names[key];
      });
    });
    return { source: join(root, ...relative.split('/')), target: posix.join(...segments), template };
  });
}

function listFiles(root: string): string[] {
  const entries = readdirSync(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1).split(sep).join('/'))
    .sort();
}
