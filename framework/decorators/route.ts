import { callerLocation, metadataOf, type RouteOptions } from '../metadata';
import type { HttpMethod } from '../core/types';

function routeDecorator(method: HttpMethod) {
  return (path: string | RouteOptions = '', options: RouteOptions = {}): MethodDecorator => {
    const source = callerLocation(1);
    return (target, handler) => {
      if (typeof path !== 'string') [path, options] = ['', path];
      metadataOf(target.constructor).routes.push({ method, path, handler, options, source });
    };
  };
}

/**
 * Declares a GET endpoint. Without a sub-path (or with `'/'`) it binds the router's base path;
 * `{name}` segments are path parameters. GET endpoints also answer HEAD.
 *
 * @example
 * ```ts
 * @Get('/{task_id}') one(@Path('task_id') id: number) { return this.tasks.get(id); }
 * ```
 */
export const Get = routeDecorator('GET');
/**
 * Declares a POST endpoint.
 *
 * @example
 * ```ts
 * @Post('/', { status: 201 }) create(@Body() body: TaskIn) { return this.tasks.add(body); }
 * ```
 */
export const Post = routeDecorator('POST');
/**
 * Declares a PUT endpoint.
 *
 * @example
 * ```ts
 * @Put('/{id}') replace(@Path('id') id: number, @Body() body: TaskIn) { return this.tasks.replace(id, body); }
 * ```
 */
export const Put = routeDecorator('PUT');
/**
 * Declares a PATCH endpoint.
 *
 * @example
 * ```ts
 * @Patch('/{id}') update(@Path('id') id: number, @Body() body: TaskPatch) { return this.tasks.update(id, body); }
 * ```
 */
export const Patch = routeDecorator('PATCH');
/**
 * Declares a DELETE endpoint (`delete` is a reserved word, hence PascalCase).
 *
 * @example
 * ```ts
 * @Delete('/{id}') remove(@Path('id') id: number) { this.tasks.delete(id); return { message: 'Deleted' }; }
 * ```
 */
export const Delete = routeDecorator('DELETE');
/**
 * Declares an explicit HEAD endpoint; whatever it returns, only the status and headers are sent.
 *
 * @example
 * ```ts
 * @Head('/{id}') exists(@Path('id') id: number) { return this.tasks.has(id) ? undefined : [null, 404]; }
 * ```
 */
export const Head = routeDecorator('HEAD');
/**
 * Declares an explicit OPTIONS endpoint (without one, OPTIONS answers 204 with `Allow`).
 *
 * @example
 * ```ts
 * @Options() describe() { return { methods: ['GET', 'POST'] }; }
 * ```
 */
export const Options = routeDecorator('OPTIONS');
