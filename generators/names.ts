import { isAbsolute } from 'node:path';
import validatePackageName from 'validate-npm-package-name';
import { SHARED_LIBRARIES } from './dependencies';
import { GeneratorError } from './generator-error';

/** What `trellis add` generates. */
export type ArtifactKind = 'router' | 'service' | 'middleware';

/** The names one `trellis add` derives from what the user typed. */
export interface ArtifactNames {
  /** File name without `.ts`, snake_case like the sample (`order_items`, `billing_service`, `require_token`). */
  stem: string;
  /** `OrderItemsRouter`, `BillingService`, `RequireToken`. */
  className: string;
  /** Words of the name for prose: `order items`. */
  label: string;
  /** `/order-items` (routers only). */
  basePath: string;
}

const ARTIFACT_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const FOLDERS: Record<ArtifactKind, string> = { router: 'routers', service: 'services', middleware: 'middleware' };

/** `orderItems`, `order-items`, `Order_Items` -> `['order', 'items']`. */
export function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
export const pascalCase = (name: string) => words(name).map(capitalize).join('');
export const snakeCase = (name: string) => words(name).join('_');
export const kebabCase = (name: string) => words(name).join('-');
/** `my-shop` -> `My Shop`. */
export const titleCase = (name: string) => words(name).map(capitalize).join(' ');

/**
 * A project name is a folder name in the current directory and the npm package name: no path, valid for npm,
 * and not the name of a package the project depends on.
 * Throws `GeneratorError('invalid-project-name')` with npm's reason.
 */
export function checkProjectName(name: string): void {
  if (name.trim() === '') throw new GeneratorError('invalid-project-name', name, 'the name is empty');
  if (isAbsolute(name) || /[\\/]/.test(name) || name === '.' || name === '..') {
    throw new GeneratorError('invalid-project-name', name, 'give a folder name, not a path');
  }
  const result = validatePackageName(name);
  if (!result.validForNewPackages) {
    const reason = [...(result.errors ?? []), ...(result.warnings ?? [])][0] ?? 'not a valid npm package name';
    throw new GeneratorError('invalid-project-name', name, reason);
  }
  if (name === 'trellis' || (SHARED_LIBRARIES as readonly string[]).includes(name)) {
    throw new GeneratorError('invalid-project-name', name, `the project depends on the package ${name}, so npm refuses that name`);
  }
}

/** The folder of a project that holds each kind of artifact. */
export function folderOf(kind: ArtifactKind): string {
  return FOLDERS[kind];
}

/**
 * Derives file and class names for `trellis add <kind> <name>`; a trailing `router`/`service` word is not
 * doubled (`billing_service` -> `BillingService`). Throws `GeneratorError('invalid-name')`.
 */
export function artifactNames(kind: ArtifactKind, name: string): ArtifactNames {
  if (!ARTIFACT_NAME.test(name)) {
    throw new GeneratorError('invalid-name', name, 'use letters, digits, "-" and "_", starting with a letter');
  }
  let parts = words(name);
  if (kind !== 'middleware' && parts.length > 1 && parts[parts.length - 1] === kind) parts = parts.slice(0, -1);
  if (kind !== 'middleware' && parts.length === 1 && parts[0] === kind) {
    throw new GeneratorError('invalid-name', name, `name the ${kind}, e.g. "orders"`);
  }
  const base = parts.join('_');
  const pascal = pascalCase(base);
  if (kind === 'middleware' && pascal in globalThis) {
    throw new GeneratorError('invalid-name', name, `the class ${pascal} would hide the global ${pascal}`);
  }
  return {
    stem: kind === 'service' ? `${base}_service` : base,
    className: kind === 'router' ? `${pascal}Router` : kind === 'service' ? `${pascal}Service` : pascal,
    label: parts.join(' '),
    basePath: `/${kebabCase(base)}`,
  };
}

/**
 * A router base path given with `--path`: literal segments only (`/api/orders`); `{params}` need handler
 * arguments, which a generated list endpoint does not have.
 */
export function checkBasePath(path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed) || /\/\.\.?(\/|$)/.test(trimmed)) {
    throw new GeneratorError('invalid-path', path);
  }
  return trimmed;
}
