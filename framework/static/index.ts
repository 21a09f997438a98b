export { serveStatic, staticMount } from './mount';
export type { StaticMount } from './mount';
export { faviconHandler } from './favicon';
