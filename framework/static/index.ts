export { mountStatic } from './mount';
export type { StaticMount } from './mount';
export { faviconHandler } from './favicon';
