/**
 * Every line of user-facing text of the runtime (opening, loading and serving a project), in one place. Public as
 * `runtimeMessages` (trellis/internal), so that a supervisor (the CLI's cluster primary) prints the same lines.
 *
 * @example
 * ```ts
 * runtimeMessages.run.shuttingDown('SIGTERM'); // 'Shutting down (SIGTERM): finishing requests in flight'
 * ```
 */
export const messages = {
  project: {
    notFound: (path: string) => `${path} does not exist`,
    notADirectory: (path: string) => `${path} is not a folder`,
    notAProject: (path: string) => `${path} is not a trellis project (no config.yaml, no routers/)`,
  },
  env: {
    badPort: (value: string) => `PORT must be an integer from 0 to 65535, got "${value}" (from the environment or .env)`,
    badHost: (value: string) => `HOST is not a host name or address: "${value}" (from the environment or .env)`,
    unreadable: (file: string) => `${file} is not a file of at most 1 MiB`,
  },
  run: {
    banner: (version: string) => `trellis ${version}`,
    running: (path: string, url: string) => `Running app ${path} on ${url}`,
    config: (file: string | undefined) => `  Config:      ${file ?? 'none (defaults)'}`,
    routers: (count: number) => `  Routers:     ${count} discovered`,
    static: (dir: string, found: boolean) => `  Static:      ${dir}${found ? '' : ' (not found)'}`,
    templates: (dir: string, found: boolean) => `  Templates:   ${dir}${found ? '' : ' (not found)'}`,
    middleware: (count: number) => `  Middleware:  ${count} loaded`,
    database: (label: string) => `  Database:    ${label}`,
    // With a database server the state is there, shared by every worker; a service's own memory still is not.
    workersSharing: (count: number) => `  Workers:     ${count}, sharing the database: state kept there is shared (a service's own memory is not)`,
    // Each worker builds its own services: what one keeps in memory the others never see.
    workers: (count: number, services: string[]) => {
      const named = services.length > 3 ? `${services.slice(0, 3).join(', ')} and ${services.length - 3} more` : services.join(', ');
      return `  Workers:     ${count}, each with its own ${named ? `services (${named})` : 'services'}: state kept in memory is not shared`;
    },
    doctorHint: (path: string) => `Run \`trellis doctor ${path}\` for a more detailed analysis.`,
    // A build's main.js has no flags: the environment chooses its address.
    portInUse: (host: string, port: number, built = false) => {
      const next = port === 65535 ? port - 1 : port + 1;
      const how = built ? `PORT (e.g. PORT=${next}, or PORT=0 for any free port)` : `--port (e.g. --port ${next}, or --port 0 for any free port)`;
      return `port ${port} is already in use on ${host}; choose another with ${how}`;
    },
    portDenied: (host: string, port: number, built = false) =>
      `not allowed to listen on ${host}:${port} (ports below 1024 need privileges); choose another with ${built ? 'PORT' : '--port'}`,
    hostUnavailable: (host: string, built = false) =>
      `cannot listen on ${host}: no such address on this machine; choose another with ${built ? 'HOST' : '--host'}`,
    listenFailed: (host: string, port: number, reason: string) => `cannot listen on ${host}:${port}: ${reason}`,
    appInvalid: (path: string, reason: string) => `the app in ${path} cannot start: ${reason}`,
    shuttingDown: (signal: string) => `Shutting down (${signal}): finishing requests in flight`,
    stopped: 'Stopped.',
    graceExpired: (graceMs: number) => `requests still running after the ${graceMs / 1000} s grace period were cut off`,
    interrupted: 'a second signal cut off the requests still running',
    badGrace: (name: string, value: string) => `${name} must be a whole number of milliseconds, got "${value}"`,
    uncaught: (fromPromise: boolean) =>
      `${fromPromise ? 'a promise rejected with no handler' : 'an error was thrown outside any request'}; ` +
      'stopping, since the process state is unknown (the stack follows)',
  },
  database: {
    notInstalled: (missing: string[]) =>
      `config.yaml has a database: section, but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not installed: npm install ${missing.join(' ')}`,
    embedded: (dir: string) => `embedded (PGlite) in ${dir}`,
    server: (address: string) => `PostgreSQL at ${address}`,
    pool: (label: string, pool: number) => `${label}, ${pool} connection${pool === 1 ? '' : 's'} per process`,
    noSection: (path: string) => `${path === '.' ? '' : `${path}/`}config.yaml has no database: section: there is no database to migrate`,
    migrating: (label: string) => `Migrating the database: ${label}`,
    applied: (name: string) => `  Applied ${name}`,
    summary: (count: number) =>
      count === 0 ? 'Nothing to apply: the database has every migration.' : `${count} migration${count === 1 ? '' : 's'} applied: the database is up to date.`,
  },
  build: {
    noManifest: (path: string) => `${path} is not a trellis build (no trellis.manifest.json); make one with \`trellis build\``,
    badManifest: (file: string, reason: string) => `${file} cannot be read: ${reason}; rebuild with \`trellis build\``,
    otherFormat: (file: string, version: string) =>
      `${file} was written by trellis ${version}, which this version cannot serve; rebuild with \`trellis build\``,
    unexpected: (message: string) => `unexpected error while starting: ${message}`,
    // A development run may have found it in .env, which a build never reads.
    unset: (name: string) => `${name} is not set (a build reads no .env: set it in the environment)`,
    missingExport: (file: string, name: string) =>
      `${file} no longer exports ${name} as the manifest says; rebuild with \`trellis build\``,
  },
};
