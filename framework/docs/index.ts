export { docs } from './plugin';
export { docsPrefix } from './options';
export type { DocsOptions } from './options';
export { docsRouter } from './routes';
export type { DocsSource } from './routes';
