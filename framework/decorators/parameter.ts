import { metadataOf, type Class, type ParamDefinition, type ScalarType } from '../metadata';
import type { FormFile } from '../uploads/form';

/** Marks a number parameter as an integer: `1.5` is then a 422 and the docs say `integer`. */
export const Int = 'integer' as const;

type ParamType = ScalarType | Class | [Class | ScalarType];

export interface PathOptions {
  type?: ParamType;
  description?: string;
}

export interface ValueOptions extends PathOptions {
  /** Leave out for a required value; `null` makes it optional and nullable; any other value is the default. */
  default?: unknown;
}

export interface BodyOptions {
  /** The element class of an array body: `@Body({ type: Item }) items: Item[]`. */
  type?: Class;
  description?: string;
  /**
   * The most elements an array body may have, checked before the body is parsed (413 above it).
   * 1,000 by default.
   */
  maxItems?: number;
}

function record(definition: Omit<ParamDefinition, 'index' | 'hasDefault'>, options?: object): ParameterDecorator {
  return (target, handler, index) => {
    if (handler === undefined) return;
    const params = metadataOf(target.constructor).params;
    const list = params.get(handler) ?? [];
    list.push({ ...definition, index, hasDefault: options !== undefined && 'default' in options });
    params.set(handler, list);
  };
}

/**
 * Binds a `{name}` segment of the route path, converted to the parameter's type.
 *
 * @example
 * ```ts
 * @Get('/{task_id}') one(@Path('task_id', { type: Int }) id: number) { ... }
 * ```
 */
export function Path(name: string, options: PathOptions = {}): ParameterDecorator {
  return record({ kind: 'path', name, type: options.type, description: options.description });
}

/**
 * Binds a query-string value. Required unless a `default` is given (`default: null` = optional, may be null).
 * Array parameters collect repeated keys (`?tag=a&tag=b`).
 *
 * @example
 * ```ts
 * @Get() list(@Query('page', { type: Int, default: 1 }) page: number,
 *             @Query('category', { default: null }) category: string | null) { ... }
 * ```
 */
export function Query(name: string, options: ValueOptions = {}): ParameterDecorator {
  return record({ kind: 'query', name, ...options }, options);
}

/**
 * Binds a request header by its HTTP name (case-insensitive). Required unless a `default` is given.
 *
 * @example
 * ```ts
 * @Get('/me') me(@Header('Authorization') auth: string, @Header('X-Trace', { default: null }) trace: string | null) { ... }
 * ```
 */
export function Header(name: string, options: ValueOptions = {}): ParameterDecorator {
  return record({ kind: 'header', name: name.toLowerCase(), ...options }, options);
}

/**
 * Binds the JSON body, validated with class-validator against the parameter's class before the handler runs.
 * Properties the class does not declare are dropped before anything else reads the body. The request must
 * say `Content-Type: application/json` (415 otherwise; a request with neither body nor Content-Type is a
 * missing body, 422). For an array body, name the element class; it takes at most `maxItems` elements
 * (1,000 by default; 413 above it, before the body is even parsed).
 *
 * @example
 * ```ts
 * @Post('/') create(@Body() body: TaskIn) { ... }
 * @Post('/batch') createMany(@Body({ type: TaskIn, maxItems: 500 }) items: TaskIn[]) { ... }
 * ```
 */
export function Body(options: BodyOptions = {}): ParameterDecorator {
  return record({ kind: 'body', type: options.type, description: options.description, maxItems: options.maxItems });
}

/**
 * Binds the trellis `Request`: method, path, headers, query, params and the raw Node request.
 *
 * @example
 * ```ts
 * @Get('/whoami') whoami(@Req() request: Request) { return { agent: request.headers['user-agent'] }; }
 * ```
 */
export function Req(): ParameterDecorator {
  return record({ kind: 'request' });
}

/**
 * Binds the file uploaded in multipart field `name` (a `FormFile`: in memory up to 1 MiB, else in a temporary
 * file removed after the response), or `undefined` when none was sent, so the handler decides. A file in a field
 * no `@UploadedFile` names, or two files in one field, is a 400 as it starts; limits are `AppOptions.uploads`.
 *
 * @example
 * ```ts
 * @Post('/file') upload(@UploadedFile('file') file: UploadedFile | undefined) {
 *   if (!file) return [{ error: 'No file uploaded' }, 400];
 *   return { filename: file.filename, size: file.size };
 * }
 * ```
 */
export function UploadedFile(name: string, options: { description?: string } = {}): ParameterDecorator {
  return record({ kind: 'file', name, description: options.description });
}

/** What an `@UploadedFile` parameter receives: `{ fieldname, filename, mimetype, size, buffer, path, bytes(), stream() }`. */
export type UploadedFile = FormFile;
