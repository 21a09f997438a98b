import type { BaseRouter } from '../framework/index';
import { compression, cors, etag, rateLimit, type Plugin } from '../framework/plugins';
import { websockets } from '../framework/plugins';
import { usesRateLimit } from '../framework/internal';
import { CONFIG_FILE } from './config';
import { configValueProblems } from './config-value';
import type { Discovery } from './discover';
import type { Problem } from './problem';
import type { Project } from './project';

/** A built-in feature config.yaml turns on by its top-level section: the section's name and its plug-in. */
interface Feature {
  section: string;
  /** The plug-in, reading its section with `host.settings(...)` (so a value that does not fit is located at its line). */
  plugin(discovery: Discovery, value: unknown): Plugin;
  /** Whether the feature is on without its section (the WebSocket gateways of `routers/`, say). */
  always?(discovery: Discovery): boolean;
}

// In this order: CORS answers preflights before a rate limit counts them, the ETag is computed from the body before
// compression encodes it, and the gateways come last.
const FEATURES: Feature[] = [
  { section: 'cors', plugin: () => cors() },
  // On with a `rate_limit:` section, or for the routers' own `@RateLimit`s alone (counted in Redis when `redis.url` is set).
  { section: 'rate_limit', plugin: (_discovery, value) => rateLimit(value === undefined ? { global: false, store: 'auto' } : undefined), always: (discovery) => discovery.routers.some(({ cls }) => usesRateLimit(cls)) },
  // `etag: true | false`, a value rather than a mapping: the plug-in takes it as is.
  { section: 'etag', plugin: (_discovery, value) => etag(value as boolean) },
  { section: 'compression', plugin: () => compression() },
  // On with a `websockets:` section or with gateways in routers/; limits from the section, rooms on Redis with `redis.url`.
  { section: 'websockets', plugin: (discovery) => websockets({ gateways: (discovery.gateways ?? []).map(({ cls }) => cls) }), always: (discovery) => (discovery.gateways?.length ?? 0) > 0 },
];

/**
 * Registers the features config.yaml's sections turn on (`cors:`, `compression:`, `rate_limit:`, `etag:`,
 * `websockets:`; `versioning:` changes routing and is an app option, see assemble.ts), each as its plug-in from `trellis/plugins`, after `createApp` (so `Config` is
 * provided) and before the project's own plug-ins. A section that does not fit is a problem at its line.
 *
 * @example
 * ```ts
 * const problems = registerFeatures(app, discovery, project);
 * registerFeatures(app, discovery, project, { except: ['websockets'] }); // trellis doctor registers the gateways itself
 * ```
 */
export function registerFeatures(
  app: BaseRouter,
  discovery: Discovery,
  project: Pick<Project, 'config'>,
  { except = [] }: { except?: readonly string[] } = {},
): Problem[] {
  const { values } = project.config;
  for (const feature of FEATURES) {
    if (except.includes(feature.section)) continue;
    if (values[feature.section] === undefined && !feature.always?.(discovery)) continue;
    try {
      app.register(feature.plugin(discovery, values[feature.section]));
    } catch (error) {
      const located = configValueProblems(project.config, error);
      if (located.length) return located;
      const line = project.config.lineOf([feature.section]) ?? 1;
      return [{ file: CONFIG_FILE, line, message: `${feature.section}: ${error instanceof Error ? error.message : String(error)}` }];
    }
  }
  return [];
}
