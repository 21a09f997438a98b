/** Every line of user-facing CLI text, in one place. */
export const messages = {
  unknownCommand: (name: string) => `Unknown command "${name}". Run \`trellis --help\` for the list.`,
  unexpected: (message: string) => `Unexpected error: ${message}`,
  compilerMissing: "@swc/core is not installed (it compiles the project's TypeScript): run `npm install -D @swc/core`",
  project: {
    notFound: (path: string) => `${path} does not exist`,
    notADirectory: (path: string) => `${path} is not a folder`,
    notAProject: (path: string) => `${path} is not a trellis project (no config.yaml, no routers/)`,
  },
  doctor: {
    description: 'Analyse the project at <path> without starting it: config, routes, errors and warnings.',
    title: (path: string) => `trellis doctor ${path}`,
    config: (file: string | null) => `Config:   ${file ?? 'none (defaults)'}`,
    routers: (count: number) => `Routers:  ${count} discovered`,
    routeCount: (count: number) => `${count} route${count === 1 ? '' : 's'}`,
    rejected: 'not included (see the errors)',
    routes: 'Routes:',
    errors: 'Errors:',
    warnings: 'Warnings:',
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
  },
  test: {
    description: "Run the project's tests (tests/**/*.test.ts) with node's test runner, no install needed.",
    noTests: (dir: string) => `no tests found: ${dir} has no *.test.ts or *.test.js files`,
    failed: 'some tests failed',
  },
  run: {
    description: 'Run the app found at <path> (. is the current folder).',
    banner: (version: string) => `trellis ${version}`,
    running: (path: string, url: string) => `Running app ${path} on ${url}`,
    config: (file: string | undefined) => `  Config:      ${file ?? 'none (defaults)'}`,
    routers: (count: number) => `  Routers:     ${count} discovered`,
    static: (dir: string, found: boolean) => `  Static:      ${dir}${found ? '' : ' (not found)'}`,
    templates: (dir: string, found: boolean) => `  Templates:   ${dir}${found ? '' : ' (not found)'}`,
    middleware: (count: number) => `  Middleware:  ${count} loaded`,
    workers: (count: number) => `  Workers:     ${count}`,
    doctorHint: (path: string) => `Run \`trellis doctor ${path}\` for a more detailed analysis.`,
    badPort: (value: string) => `--port must be an integer from 0 to 65535, got "${value}"`,
    badWorkers: (value: string) => `--workers must be an integer from 1 to 256, got "${value}"`,
    badHost: (value: string) => `--host is not a host name or address: "${value}"`,
    portInUse: (host: string, port: number) =>
      `port ${port} is already in use on ${host}; choose another with --port (e.g. --port ${port === 65535 ? port - 1 : port + 1}, or --port 0 for any free port)`,
    portDenied: (host: string, port: number) =>
      `not allowed to listen on ${host}:${port} (ports below 1024 need privileges); choose another with --port`,
    hostUnavailable: (host: string) => `cannot listen on ${host}: no such address on this machine; choose another with --host`,
    listenFailed: (host: string, port: number, reason: string) => `cannot listen on ${host}:${port}: ${reason}`,
    appInvalid: (path: string, reason: string) => `the app in ${path} cannot start: ${reason}`,
    shuttingDown: (signal: string) => `Shutting down (${signal}): finishing requests in flight`,
    stopped: 'Stopped.',
    graceExpired: (graceMs: number) => `requests still running after the ${graceMs / 1000} s grace period were cut off`,
    interrupted: 'a second signal cut off the requests still running',
    badGrace: (name: string, value: string) => `${name} must be a whole number of milliseconds, got "${value}"`,
    reloading: (file: string) => `Reloading: ${file} changed`,
    reloadWaiting: 'The app stopped with an error; waiting for a file change to restart.',
    workerExited: (pid: number, code: number | null, delayMs: number, streak: number) =>
      `worker ${pid} exited (${code ?? 'signal'}); starting another in ${delayMs / 1000} s` +
      (streak > 1 ? ` (${streak} crashes in a row: waiting longer each time)` : ''),
    uncaught: (fromPromise: boolean) =>
      `${fromPromise ? 'a promise rejected with no handler' : 'an error was thrown outside any request'}; ` +
      'stopping, since the process state is unknown (the stack follows)',
    workerFailed: 'a worker stopped before it could serve; stopping',
  },
  create: {
    description: 'Create a project folder <name> with the sample API (a wizard asks what flags leave out).',
    ask: {
      title: 'Title of the API',
      description: 'Description',
      port: 'Port for `trellis run`',
      examples: 'Example routers (tasks is always included)',
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
    next: (name: string, port: number) =>
      `Next: \`trellis run ${name}\`, then open http://localhost:${port}/docs/ (tests: \`trellis test ${name}\`).`,
    cancelled: 'Cancelled: nothing was written.',
  },
  add: {
    description: 'Add a router, service or middleware to a project.',
    router: 'Add a router with a GET list endpoint at /<name> (or --path).',
    service: 'Add a service class that routers receive in their constructor.',
    middleware: 'Add a middleware class (global via config.yaml, or per router).',
    ask: {
      name: (kind: string) => `Name of the ${kind}`,
      path: 'Base path of the router',
    },
    nameRequired: (kind: string) => `Missing the ${kind} name: trellis add ${kind} <name>`,
    kindRequired: 'Say what to add: trellis add router|service|middleware <name>',
    unknownKind: (kind: string) => `Cannot add "${kind}": trellis add router|service|middleware <name>`,
    file: (path: string, bytes: number) => `  CREATE ${path} (${bytes} bytes)`,
    dryRun: 'Dry run: nothing was written.',
    hint: {
      router: (className: string, basePath: string) =>
        `${className} serves GET ${basePath} from the next start of \`trellis run\` (at once with --reload).`,
      service: (className: string) =>
        `Routers get ${className} by taking it as a constructor parameter (put @Injectable() above the router).`,
      middleware: (className: string, stem: string) =>
        `Apply ${className} to every request by adding ${stem} to \`middleware:\` in config.yaml, or to one router with this.addMiddleware(${className}).`,
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
    'not-a-project': (dir: string) => `${dir} is not a trellis project (no config.yaml); point --dir at one`,
    'file-exists': (file: string) => `${file} already exists; nothing was written`,
    'render-failed': (file: string, detail: string) => `Could not write ${file}: ${detail}; nothing was written`,
  },
};
