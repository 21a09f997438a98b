import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { version } from '../package.json';
import { EXAMPLE_NAMES, type ExampleName } from './examples';
import { GeneratorError } from './generator-error';
import { titleCase } from './names';
import { frameworkDir, packageDir } from './paths';

/** What a new project is made of; `create` fills it from flags, the wizard, then {@link projectDefaults}. */
export interface ProjectOptions {
  /** Folder and npm package name. */
  name: string;
  title: string;
  description: string;
  port: number;
  /** The examples to render, already resolved (see `resolveExamples`). */
  examples: readonly ExampleName[];
  /** The Bearer token of the admin example; random unless given (tests pass a fixed one). */
  adminToken?: string;
}

/** The values `create --yes` uses for what no flag gave. */
export function projectDefaults(name: string) {
  return {
    title: `${titleCase(name) || name} API`,
    description: 'An HTTP API built with trellis.',
    port: 8000,
    examples: [...EXAMPLE_NAMES],
    git: true,
  };
}

/** A TCP port a server can listen on. Throws `GeneratorError('invalid-port')`. */
export function checkPort(port: unknown): number {
  const value = typeof port === 'string' && /^\d+$/.test(port.trim()) ? Number(port) : port;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 65535) {
    throw new GeneratorError('invalid-port', String(port));
  }
  return value;
}

/**
 * The data the project blueprint's templates receive. Values are escaped here for the file they land in
 * (`yaml.*` and `json.*` are quoted strings), so templates only insert them: `title: {{{yaml.title}}}`.
 */
export function projectData(options: ProjectOptions) {
  const token = options.adminToken ?? randomBytes(18).toString('base64url');
  const quote = (value: string) => JSON.stringify(value);
  const examples = Object.fromEntries(EXAMPLE_NAMES.map((name) => [name, options.examples.includes(name)]));
  const typesDir = typeRoot();
  return {
    name: options.name,
    title: options.title,
    description: options.description,
    port: options.port,
    trellisVersion: version,
    examples,
    // YAML double-quoted scalars accept JSON string syntax.
    yaml: { title: quote(options.title), description: quote(options.description), token: quote(token) },
    json: {
      name: quote(options.name),
      description: quote(options.description),
      trellis: quote(join(frameworkDir, 'index.ts')),
      trellisAll: quote(join(frameworkDir, '*')),
      classValidator: quote(packageDir('class-validator')),
      classTransformer: quote(packageDir('class-transformer')),
      typeRoots: typesDir ? quote(typesDir) : '',
    },
    frameworkDir,
  };
}

/** The `@types` folder holding `@types/node`, if this install has one (it is a dev dependency). */
function typeRoot(): string {
  try {
    return dirname(packageDir('@types/node'));
  } catch {
    return '';
  }
}
