import type { CorsOptions } from '../cors/options';
import { routeMark } from './route-mark';

/** The `@Cors` marks, read by the cors plug-in (internal). */
export const corsMark = routeMark<CorsOptions | false>('Cors');

/**
 * CORS for one router or handler, over the app's (config.yaml `cors:` or `cors(options)`): the options given
 * replace the app's one by one (`origins` alone, say); `false` turns CORS off there (no `Access-Control-*`
 * header, preflights answered as any `OPTIONS`). The handler's mark wins over its router's. Needs the cors
 * plug-in registered (a `cors:` section in config.yaml, or `app.register(cors())`).
 *
 * @example
 * ```ts
 * @Cors({ origins: ['https://admin.example.com'], credentials: true })
 * class AdminRouter extends router('/admin') {
 *   @Get('/stats') stats() { return { users: 3 }; }
 *   @Cors(false) @Post('/rotate-keys') rotate() { return { rotated: true }; }   // same-origin only
 * }
 * ```
 */
export function Cors(options: CorsOptions | false): ClassDecorator & MethodDecorator {
  return corsMark.decorator(options);
}
