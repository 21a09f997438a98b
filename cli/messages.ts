/** Every line of user-facing CLI text, in one place. */
export const messages = {
  unknownCommand: (name: string) => `Unknown command "${name}". Run \`trellis --help\` for the list.`,
  unexpected: (message: string) => `Unexpected error: ${message}`,
  compilerMissing: "@swc/core is not installed (it compiles the project's TypeScript): run `npm install -D @swc/core`",
  doctor: {
    description: 'Analyse the project at <path> without starting it: config, routes, errors and warnings.',
    title: (path: string) => `trellis doctor ${path}`,
    config: (file: string | null) => `Config:   ${file ?? 'none (defaults)'}`,
    routers: (count: number) => `Routers:  ${count} discovered`,
    routeCount: (count: number) => `${count} route${count === 1 ? '' : 's'}`,
    rejected: 'not included (see the errors)',
    builtIn: '(trellis: config.yaml)',
    routes: 'Routes:',
    gateways: (count: number) => `Gateways: ${count} discovered (WebSocket)`,
    errors: 'Errors:',
    warnings: 'Warnings:',
    validation: (count: number) =>
      `Validation: ${count} DTO class${count === 1 ? '' : 'es'} validated by class-validator per request (rules not compiled):`,
    openapi: (result: { checked: boolean; valid?: boolean; version?: string; operations?: number }) =>
      !result.checked
        ? 'OpenAPI:  not checked (the app could not be assembled)'
        : result.valid
          ? `OpenAPI:  valid (OpenAPI ${result.version}, ${result.operations} operation${result.operations === 1 ? '' : 's'})`
          : 'OpenAPI:  invalid (see the errors above)',
    summary: (routers: number, routes: number, errors: number, warnings: number) =>
      `${routers} router${routers === 1 ? '' : 's'}, ${routes} route${routes === 1 ? '' : 's'}, ` +
      `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`,
    failed: (errors: number) => `doctor found ${errors} error${errors === 1 ? '' : 's'}`,
    pendingMigration: (name: string) =>
      `migration ${name} is not applied to the database yet: \`trellis run\` (npm run dev) applies it, \`trellis db migrate\` before a production start`,
    databaseUnchecked: (reason: string) => `pending migrations not checked: ${reason}`,
  },
  db: {
    description: "Work on the project's database (config.yaml's database: section).",
    migrate: 'Apply the migrations in <path>/migrations the database lacks, in name order (.env and config.yaml read as by `trellis run`).',
    subcommandRequired: 'Say what to do: trellis db migrate [path]',
    unknownSubcommand: (name: string) => `Unknown db command "${name}": trellis db migrate [path]`,
    // What `db migrate` prints is the runtime's (runtimeMessages.database): a build's `main.js --migrate` prints it too.
  },
  client: {
    description: "Write a typed client of the app's API (openapi-typescript types, openapi-fetch calls) into <path>/client or --out.",
    file: (path: string, bytes: number) => `  WRITE ${path} (${bytes} bytes)`,
    next: (out: string) =>
      `Import createApiClient from ${out}/index.ts; the project using it needs openapi-fetch: npm install openapi-fetch`,
    dryRun: 'Dry run: nothing was written.',
    outIsFile: (out: string) => `--out ${out} is a file: give a folder (the client is schema.d.ts and index.ts)`,
    cannotWrite: (out: string, reason: string) => `cannot write ${out}: ${reason}`,
    generatorMissing: 'openapi-typescript is not installed (it writes the client\'s types): run `npm install -D openapi-typescript@7.13.0`',
  },
  test: {
    description: "Run the project's tests (tests/**/*.test.ts) with node's test runner, no install needed.",
    noTests: (dir: string) => `no tests found: ${dir} has no *.test.ts or *.test.js files`,
    failed: 'some tests failed',
  },
  run: {
    description: 'Run the app found at <path> (. is the current folder).',
    badPort: (value: string) => `--port must be an integer from 0 to 65535, got "${value}"`,
    badWorkers: (value: string) => `--workers must be an integer from 1 to 256, got "${value}"`,
    workersEmbedded: (count: number, dataDir: string) =>
      `--workers ${count} needs a database server: the embedded database (${dataDir}) is opened by one process at a time; set DATABASE_URL to a PostgreSQL server to run several workers`,
    badHost: (value: string) => `--host is not a host name or address: "${value}"`,
    reloading: (file: string) => `Reloading: ${file} changed`,
    reloadWaiting: 'The app stopped with an error; waiting for a file change to restart.',
    reloadKept: 'The new version did not start; the previous one keeps serving, waiting for a file change to restart.',
    workerExited: (pid: number, code: number | null, delayMs: number, streak: number) =>
      `worker ${pid} exited (${code ?? 'signal'}); starting another in ${delayMs / 1000} s` +
      (streak > 1 ? ` (${streak} crashes in a row: waiting longer each time)` : ''),
    workerFailed: 'a worker stopped before it could serve; stopping',
    metricsPartial: (silent: number[], exited: number[], timeoutMs: number, answered: number, asked: number) => {
      const workers = (pids: number[]) => `worker${pids.length > 1 ? 's' : ''} ${pids.join(', ')}`;
      const why = [
        ...(silent.length ? [`${workers(silent)} did not answer within ${timeoutMs} ms`] : []),
        ...(exited.length ? [`${workers(exited)} exited before answering`] : []),
      ];
      return `/metrics: ${why.join(', ')}; this scrape sums ${answered} of ${asked} workers`;
    },
  },
  build: {
    description: 'Compile the project at <path> into <path>/dist, served by `node dist/main.js` without TypeScript or the CLI.',
    noTypeScript: 'trellis build needs TypeScript: install it in the project (npm install --save-dev typescript)',
    moreErrors: (count: number) => `... and ${count} more error${count === 1 ? '' : 's'}`,
    typeErrors: (count: number) => `the build failed: ${count} error${count === 1 ? '' : 's'}; nothing was written`,
    assetOutside: (key: string, dir: string) =>
      `config.yaml ${key} is ${dir}, outside the project: trellis build copies it into dist/; move it into the project or give an absolute path`,
    built: (dist: string, routers: number, gateways: number, services: number, middleware: number, files: number) =>
      `Built ${dist}/: ${routers} router${routers === 1 ? '' : 's'}, ` +
      (gateways ? `${gateways} WebSocket gateway${gateways === 1 ? '' : 's'}, ` : '') +
      `${services} service${services === 1 ? '' : 's'}, ${middleware} middleware, ${files} compiled file${files === 1 ? '' : 's'}.`,
    next: (main: string) => `Start it with \`node ${main}\` (it needs the project's dependencies: npm ci --omit=dev).`,
    noBundle: 'Built without a bundle: esbuild is not installed in the project (npm install --save-dev esbuild for a faster start).',
    noTrellis: 'trellis build needs trellis installed in the project (npm install)',
    bundleFailed: (reason: string) => `the bundle could not be made: ${reason}`,
  },
  create: {
    description: 'Create a project folder <name> with the sample API (a wizard asks what flags leave out).',
    ask: {
      title: 'Title of the API',
      description: 'Description',
      port: 'Port for `trellis run`',
      examples: 'Example routers (tasks is always included)',
      db: 'Store data in a database? (embedded PGlite in development, PostgreSQL in production)',
      auth: 'Protect task writes with JWT bearer tokens? (scope tasks:write, signed with JWT_SECRET from .env)',
      git: 'Initialize a git repository?',
    },
    titleRequired: 'The title cannot be empty',
    minimalWithExamples: 'Use --minimal or --examples, not both',
    addedNeed: (example: string, neededBy: string[]) => `Including ${example}: ${neededBy.join(' and ')} needs it.`,
    rendering: (name: string) => `Creating ${name}/`,
    file: (path: string, bytes: number) => `  CREATE ${path} (${bytes} bytes)`,
    created: (name: string, count: number) => `Created ${name}/ with ${count} files.`,
    dryRun: (name: string, count: number) => `Dry run: ${name}/ would get these ${count} files; nothing was written.`,
    git: {
      initialized: (name: string) => `Initialized a git repository in ${name}/.`,
      'inside-repository': (name: string) => `${name}/ is inside a git repository already: skipped git init.`,
      'git-missing': () => 'warning: git was not found: skipped git init.',
      failed: (name: string) => `warning: git init failed in ${name}/; the project is ready without a repository.`,
    },
    installing: (name: string, command: string) => `Installing dependencies in ${name}/ (${command})...`,
    installed: (seconds: number) => `Installed dependencies in ${seconds.toFixed(1)} s.`,
    installFailed: (name: string, command: string, reason: string) =>
      `${command} failed: ${reason.replace(/\.$/, '')}. The project is in ${name}/: fix the cause, then run \`cd ${name} && ${command}\``,
    next: (name: string, port: number, installed: boolean) =>
      `Next: \`cd ${name} && ${installed ? '' : 'npm install && '}npm run dev\`, then open http://localhost:${port}/docs/ (tests: \`npm test\`).`,
    cancelled: 'Cancelled: nothing was written.',
    fromCheckout: (checkout: string, name: string) =>
      `Not a registry install: packing trellis and trellis-cli from ${checkout} (npm run pack) into ${name}/vendor/.`,
    packing: 'Packing trellis and trellis-cli',
    packFailed: (checkout: string, reason: string) => `packing ${checkout} failed: ${reason} (or give --trellis-spec)`,
  },
  token: {
    description: "Print a development token (HS256 JWT) signed with JWT_SECRET from the project's .env or the environment.",
    noSecret: (path: string) =>
      `no JWT_SECRET in ${path}/.env or the environment: a project made with \`trellis create --auth jwt\` has one; set it to sign tokens`,
    badExpires: (value: string) => `--expires must be a number and a unit (s, m, h, d or w), like 30m or 1h; got "${value}"`,
    badScope: (value: string) => `--scope takes one scope without spaces (repeat --scope for more); got "${value}"`,
  },
  add: {
    description: 'Add a router, service, middleware or resource to a project.',
    router: 'Add a router with a GET list endpoint at /<name> (or --path).',
    service: 'Add a service class that routers receive in their constructor.',
    middleware: 'Add a middleware class (global via config.yaml, or per router).',
    resource: 'Add a resource: a router with list (paged), get, create, update and delete, its DTO, a service (on the database in a --db project), a migration and a test.',
    ask: {
      name: (kind: string) => `Name of the ${kind}`,
      path: 'Base path of the router',
    },
    nameRequired: (kind: string) => `Missing the ${kind} name: trellis add ${kind} <name>`,
    kindRequired: 'Say what to add: trellis add router|service|middleware|resource <name>',
    unknownKind: (kind: string) => `Cannot add "${kind}": trellis add router|service|middleware|resource <name>`,
    file: (path: string, bytes: number) => `  CREATE ${path} (${bytes} bytes)`,
    updated: (path: string, bytes: number) => `  UPDATE ${path} (${bytes} bytes)`,
    dryRun: 'Dry run: nothing was written.',
    hint: {
      router: (className: string, basePath: string) =>
        `${className} serves GET ${basePath} from the next start of \`trellis run\` (at once with --reload).`,
      service: (className: string) =>
        `Routers get ${className} by taking it as a constructor parameter (put @Injectable() above the router).`,
      middleware: (className: string, stem: string) =>
        `Apply ${className} to every request by adding ${stem} to \`middleware:\` in config.yaml, or to one router or handler with @Use(${className}) above it (import it from ../middleware/${stem}).`,
      resource: (className: string, basePath: string, itemPath: string, db: boolean) =>
        `${className} serves GET/POST ${basePath} and GET/PUT/DELETE ${basePath}${itemPath} from the next start of \`trellis run\`` +
        (db ? ', which applies the migration (`npm run db:migrate` elsewhere).' : ' (kept in memory: `trellis create --db` makes a project on a database).'),
    },
  },
  /** The line for each refusal of a generator (`GeneratorError.reason`). */
  generator: {
    'invalid-project-name': (name: string, detail: string) => `Invalid project name "${name}": ${detail}`,
    'target-not-empty': (name: string) =>
      `${name}/ exists and is not empty; choose another name, or use --force to write the project into it`,
    'target-not-a-folder': (name: string) => `${name} exists and is not a folder; choose another name`,
    'invalid-name': (name: string, detail: string) => `Invalid name "${name}": ${detail}`,
    'invalid-path': (path: string) =>
      `Invalid --path "${path}": give a base path like /api/orders (letters, digits, - _ . ~; no {params})`,
    'invalid-port': (port: string) => `The port must be an integer from 1 to 65535, got "${port}"`,
    'unknown-example': (name: string, known: string) => `Unknown example "${name}"; the examples are: ${known}`,
    'unknown-auth': (value: string, known: string) => `Unknown --auth "${value}"; the choices are: ${known}`,
    'not-a-project': (dir: string) => `${dir} is not a trellis project (no config.yaml); point --dir at one`,
    'file-exists': (file: string) => `${file} already exists; nothing was written`,
    'render-failed': (file: string, detail: string) => `Could not write ${file}: ${detail}; nothing was written`,
    'table-exists': (table: string, file: string) => `${file} already has a table ${table}; nothing was written`,
    'no-tables-interface': (file: string, detail: string) => `Cannot add the table to ${file}: ${detail}; nothing was written`,
    'invalid-trellis-spec': (spec: string, detail: string) =>
      `Invalid --trellis-spec "${spec}": ${detail}; give a tarball or folder path, a version or a tag`,
  },
};
