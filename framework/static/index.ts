export { favicon, staticFiles, StaticFiles } from './plugin';
export { staticMount, staticRouter } from './mount';
export type { StaticMount } from './mount';
export { faviconRouter } from './favicon';
