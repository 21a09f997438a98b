import type { Registry } from 'prom-client';
import type { AppOptions } from '../app-options';
import { docs } from '../docs/plugin';
import { health } from '../health/plugin';
import { MetricsPlugin } from '../metrics/plugin';
import type { StaticMount } from '../static/mount';
import { StaticFiles } from '../static/plugin';
import { Templates } from '../templates/plugin';
import type { Plugin } from './plugin';
import { uploads } from './uploads';

export { favicon, staticFiles } from '../static/plugin';
export { templates } from '../templates/plugin';
export type { Registry } from 'prom-client';
export type { StaticMount } from '../static/mount';
export type { TemplateOptions } from '../templates/engine';
export type { UploadLimits } from '../uploads/limits';

/**
 * The plug-ins `AppOptions` asks for, in the order their routes are listed (after every other route): metrics
 * (`metrics`), the docs pages (unless `docs: false`), the health probes (`health`), then the upload limits (`uploads`).
 * Each option is checked here, by its plug-in's factory.
 */
export function defaultPlugins(options: AppOptions): Plugin[] {
  const plugins: Plugin[] = [];
  if (options.metrics) plugins.push(new MetricsPlugin(options.metrics === true ? {} : options.metrics));
  if (options.docs !== false) plugins.push(docs(options.docs));
  if (options.health) plugins.push(health(options.health === true ? {} : options.health));
  if (options.uploads !== undefined) plugins.push(uploads(options.uploads));
  return plugins;
}

/** The registry of the metrics plug-in among `plugins`, if one is registered. */
export function metricsRegistry(plugins: readonly Plugin[]): Registry | undefined {
  return plugins.find((plugin): plugin is MetricsPlugin => plugin instanceof MetricsPlugin)?.registry;
}

/** The mounts of the static files plug-ins among `plugins`, in registration order. */
export function staticMounts(plugins: readonly Plugin[]): StaticMount[] {
  return plugins.filter((plugin): plugin is StaticFiles => plugin instanceof StaticFiles).map((plugin) => plugin.mount);
}

/** The absolute directory of the templates plug-in among `plugins`, if one is registered. */
export function templatesDir(plugins: readonly Plugin[]): string | undefined {
  return plugins.find((plugin): plugin is Templates => plugin instanceof Templates)?.engine.dir;
}

