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

/**
 * The blueprints, one folder each under `blueprints/`. `project-db` and `resource-db` are overlays: laid over
 * `project` and `resource` for a project on a database (see {@link planOverlay}); `project-auth` over the project
 * for `--auth jwt`, and `project-db-auth` over both for a project with both.
 */
export type BlueprintName =
  | 'project'
  | 'project-db'
  | 'project-auth'
  | 'project-db-auth'
  | 'router'
  | 'service'
  | 'middleware'
  | 'resource'
  | 'resource-db';

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

/**
 * A blueprint with an overlay laid over it: the overlay's file replaces the base's of the same target (in the
 * base's place), and its other files follow, in the overlay's order.
 *
 * @example
 * ```ts
 * planOverlay(planBlueprint('project'), planBlueprint('project-db'));
 * // services/task_service.ts from project-db/, db/schema.ts and migrations/ added
 * ```
 */
export function planOverlay(base: readonly BlueprintFile[], overlay: readonly BlueprintFile[]): BlueprintFile[] {
  const over = new Map(overlay.map((file) => [file.target, file]));
  const targets = new Set(base.map((file) => file.target));
  return [...base.map((file) => over.get(file.target) ?? file), ...overlay.filter((file) => !targets.has(file.target))];
}

function listFiles(root: string): string[] {
  const entries = readdirSync(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1).split(sep).join('/'))
    .sort();
}
