export { health } from './plugin';
export { healthRouter } from './routes';
export type { Readiness, ReadinessSource } from './readiness';
export { healthSettings } from './settings';
export type { HealthOptions, HealthSettings } from './settings';
