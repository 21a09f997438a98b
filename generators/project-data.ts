import { randomBytes } from 'node:crypto';
import { projectDependencies, projectDevDependencies, trellisManifest } from './dependencies';
import { EXAMPLE_NAMES, type ExampleName } from './examples';
import { GeneratorError } from './generator-error';
import { titleCase } from './names';

/** What a new project is made of; `create` fills it from flags, the wizard, then {@link projectDefaults}. */
export interface ProjectOptions {
  /** Folder and npm package name. */
  name: string;
  title: string;
  description: string;
  port: number;
  /** The examples to render, already resolved (see `resolveExamples`). */
  examples: readonly ExampleName[];
  /** The admin example's Bearer token written to `.env`; random unless given (tests pass a fixed one). */
  adminToken?: string;
  /**
   * What `package.json` depends on for `trellis` (and `trellis-cli`): an npm spec (a tarball or folder path,
   * relative to `cwd`, a version, a tag, a URL; see `trellisSpecs`). Without it, `^<this trellis's version>`.
   */
  trellisSpec?: string;
  /**
   * Keep the sample's data in a database (`trellis create --db`): services on Kysely, tables made by `migrations/`,
   * the embedded PGlite in `data/` in development, `DATABASE_URL` (PostgreSQL) in production. In memory without.
   */
  db?: boolean;
  /**
   * How the sample's task writes are protected (`trellis create --auth`): `jwt` = POST, PUT and DELETE of
   * /tasks need an HS256 bearer token with the scope `tasks:write`, signed with `JWT_SECRET` (in `.env`);
   * `none` (the default) = open.
   */
  auth?: AuthKind;
  /** With `auth: 'jwt'`, the `JWT_SECRET` written to `.env`; random (32 bytes, base64url) unless given (tests pass a fixed one). */
  jwtSecret?: string;
}

/** What `trellis create --auth` accepts: `none` (the default) or `jwt`. */
export const AUTH_KINDS = ['none', 'jwt'] as const;

export type AuthKind = (typeof AUTH_KINDS)[number];

/** An `--auth` value as an {@link AuthKind}. Throws `GeneratorError('unknown-auth')` naming the choices. */
export function checkAuth(value: string): AuthKind {
  const kind = AUTH_KINDS.find((known) => known === value);
  if (kind === undefined) throw new GeneratorError('unknown-auth', value, AUTH_KINDS.join(', '));
  return kind;
}

/** The values `create --yes` uses for what no flag gave. */
export function projectDefaults(name: string) {
  return {
    title: `${titleCase(name) || name} API`,
    description: 'An HTTP API built with trellis.',
    port: 8000,
    examples: [...EXAMPLE_NAMES],
    db: false,
    auth: 'none' as AuthKind,
    git: true,
    install: true,
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
 * (`yaml.*` and `json.*` are quoted strings or whole JSON values), so templates only insert them:
 * `title: {{{yaml.title}}}`. `specs` are the dependencies on trellis and trellis-cli as package.json writes
 * them (see `trellisSpecs`).
 */
export function projectData(options: ProjectOptions, specs: { trellis: string; cli: string }) {
  const token = options.adminToken ?? randomBytes(18).toString('base64url');
  const jwt = options.auth === 'jwt';
  const quote = (value: string) => JSON.stringify(value);
  const yamlText = (value: string) => quote(value.replaceAll('${', () => '$${'));
  // A nested JSON value at the indentation of a top-level key of package.json.
  const block = (value: object) => JSON.stringify(value, null, 2).replace(/\n/g, '\n  ');
  const examples = Object.fromEntries(EXAMPLE_NAMES.map((name) => [name, options.examples.includes(name)]));
  return {
    name: options.name,
    title: options.title,
    description: options.description,
    port: options.port,
    adminToken: token,
    trellisVersion: trellisManifest.version,
    nodeVersion: trellisManifest.engines?.node ?? '>=20',
    examples,
    db: options.db === true,
    auth: jwt,
    jwtSecret: jwt ? (options.jwtSecret ?? randomBytes(32).toString('base64url')) : undefined,
    // YAML double-quoted scalars accept JSON string syntax.
    // `$${` is how config.yaml writes a literal `${` (else it would read as a reference to the environment).
    yaml: { title: yamlText(options.title), description: yamlText(options.description) },
    json: {
      name: quote(options.name),
      description: quote(options.description),
      engines: block({ node: trellisManifest.engines?.node ?? '>=20' }),
      dependencies: block(projectDependencies(specs.trellis, { db: options.db })),
      devDependencies: block(projectDevDependencies(specs.cli, { db: options.db })),
    },
  };
}
