export { staticMount, staticRouter } from './mount';
export type { StaticMount } from './mount';
export { faviconRouter } from './favicon';
