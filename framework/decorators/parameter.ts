import { metadataOf, type ParamDefinition } from '../metadata';
import type { Class, ScalarType } from '../core/types';
import type { FormFile } from '../uploads/form';
import { TrellisError } from '../framework-error';
import type { ValueConstraints } from '../core/value-constraints';
import { compileConstraints, CONSTRAINT_KEYS, ConstraintProblem, constraintsOf } from '../pipeline/constraints';
import { valueTypeOf } from '../pipeline/value-type';

/** Marks a number parameter as an integer: `1.5` is then a 422 and the docs say `integer`. */
export const Int = 'integer' as const;

type ParamType = ScalarType | Class | [Class | ScalarType];

/**
 * Options of `@Path`, `@Query` and `@Header`: the value's type, its description, and limits on it
 * (`minimum`, `maximum`, `enum`, `pattern`, `minLength`, `maxLength`: each item's, for an array), enforced
 * as a 422 and written into the OpenAPI document. A limit that cannot apply to the type throws
 * `TRELLIS_ERR_PARAM_CONSTRAINT` where the class is defined.
 *
 * @example
 * ```ts
 * @Get('/{code}') one(@Path('code', { pattern: '^[A-Z]{3}$', description: 'An airport code' }) code: string) { ... }
 * ```
 */
export interface PathOptions extends ValueConstraints {
  type?: ParamType;
  description?: string;
}

export interface ValueOptions extends PathOptions {
  /** Leave out for a required value; `null` makes it optional and nullable; any other value is the default. */
  default?: unknown;
}

/**
 * Options of `@Query()` and `@Header()` without a name: the class whose properties are the values (the
 * parameter's declared class when left out). The document describes each property as its own parameter.
 *
 * @example
 * ```ts
 * @Get() list(@Query({ type: ListQuery }) query: ListQuery) { ... }
 * ```
 */
export interface ClassValueOptions {
  type?: Class;
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

function record(definition: Omit<ParamDefinition, 'index' | 'hasDefault'>): ParameterDecorator {
  return (target, handler, index) => {
    // On a constructor (a request-scoped provider's), `target` is the class: recorded under 'constructor'.
    const key = handler ?? 'constructor';
    const params = metadataOf(handler === undefined ? target : target.constructor).params;
    params.set(key, [...(params.get(key) ?? []), { ...definition, index, hasDefault: false }]);
  };
}

/**
 * Records a path, query or header value, its constraints checked now against its type (TypeScript has
 * recorded `design:paramtypes` by the time parameter decorators run), its default against its constraints.
 */
function recordValue(kind: 'path' | 'query' | 'header', name: string, options: ValueOptions): ParameterDecorator {
  const { type, description } = options;
  const hasDefault = kind !== 'path' && 'default' in options;
  return (target, handler, index) => {
    const owner = handler === undefined ? (target as Function) : target.constructor;
    const key = handler ?? 'constructor';
    const param: ParamDefinition = { kind, name, type, description, index, hasDefault };
    if (hasDefault) param.default = options.default;
    if (CONSTRAINT_KEYS.some((key) => options[key] !== undefined)) {
      const label = `${owner.name}.${String(key)}`;
      const designType: unknown = Reflect.getMetadata('design:paramtypes', target, handler as string | symbol)?.[index];
      const valueType = valueTypeOf(label, param, designType);
      try {
        param.constraints = constraintsOf(options, Array.isArray(valueType) ? valueType[0] : valueType);
        if (param.constraints) checkDefault(param.constraints, param);
      } catch (error) {
        if (!(error instanceof ConstraintProblem)) throw error;
        throw new TrellisError('TRELLIS_ERR_PARAM_CONSTRAINT', label, kind, name, error.option, error.reason);
      }
    }
    const params = metadataOf(owner).params;
    params.set(key, [...(params.get(key) ?? []), param]);
  };
}

/** Records a class of query or header values: no `name`; the class is checked when the route is compiled. */
function recordClass(kind: 'query' | 'header', options: ClassValueOptions): ParameterDecorator {
  return record({ kind, type: options.type });
}

/** A default is what the handler gets with no value sent: the constraints must accept it (`null` aside). */
function checkDefault(constraints: ValueConstraints, param: ParamDefinition): void {
  if (param.default === null || param.default === undefined) return;
  const check = compileConstraints(constraints);
  for (const item of Array.isArray(param.default) ? param.default : [param.default]) {
    const problem = check(item);
    if (problem) throw new ConstraintProblem('default', `${JSON.stringify(item) ?? String(item)}: ${problem}`);
  }
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
  return recordValue('path', name, options);
}

/**
 * Binds a query-string value. Required unless a `default` is given (`default: null` = optional, may be null).
 * Array parameters collect repeated keys (`?tag=a&tag=b`). Limits (`minimum`, `enum`, ...) answer a 422 past them.
 *
 * Without a name, binds a class of query values (the parameter's declared class, or `type`): each property
 * with class-validator rules is read from the query key of its name, converted by its declared type (number,
 * `@IsInt()` integer, boolean, string, `Date`, an enum, an array of these from repeated keys), then the class is
 * validated as `@Body()` classes are; a class default (`limit = 20`) stays when the key is absent; other keys
 * are ignored. Failures are 422 details with `location: 'query'` and the property as `field`.
 *
 * @example
 * ```ts
 * @Get() list(@Query('page', { type: Int, default: 1, minimum: 1 }) page: number,
 *             @Query('sort', { default: 'name', enum: ['name', 'price'] }) sort: 'name' | 'price',
 *             @Query('category', { default: null }) category: string | null) { ... }
 * @Get('/search') search(@Query() query: SearchQuery) { ... }
 * ```
 */
export function Query(options?: ClassValueOptions): ParameterDecorator;
export function Query(name: string, options?: ValueOptions): ParameterDecorator;
export function Query(name?: string | ClassValueOptions, options: ValueOptions = {}): ParameterDecorator {
  if (typeof name !== 'string') return recordClass('query', name ?? {});
  return recordValue('query', name, options);
}

/**
 * Binds a request header by its HTTP name (case-insensitive). Required unless a `default` is given.
 *
 * Without a name, binds a class of header values, read and validated as `@Query()` reads a class: a property
 * names its header in kebab case (`requestId` reads `request-id`, `xTraceId` reads `x-trace-id`), or literally
 * when quoted (`'x-trace-id'`), in any letter case; the 422 details say `location: 'header'`.
 *
 * @example
 * ```ts
 * @Get('/me') me(@Header('Authorization') auth: string, @Header('X-Trace', { default: null }) trace: string | null) { ... }
 * @Get('/trace') trace(@Header() headers: TraceHeaders) { ... }
 * ```
 */
export function Header(options?: ClassValueOptions): ParameterDecorator;
export function Header(name: string, options?: ValueOptions): ParameterDecorator;
export function Header(name?: string | ClassValueOptions, options: ValueOptions = {}): ParameterDecorator {
  if (typeof name !== 'string') return recordClass('header', name ?? {});
  return recordValue('header', name.toLowerCase(), options);
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
 * file removed after the response). A file in a field no `@UploadedFile` names, or two files in one field, is a
 * 400 as it starts; limits are `AppOptions.uploads`. When none was sent, the handler gets `undefined` and
 * decides; with `{ required: true }` the framework answers 400 `{ "error": "Missing file in the multipart
 * field \"file\"" }` instead, and the OpenAPI document marks the field required.
 *
 * @example
 * ```ts
 * @Post('/file') upload(@UploadedFile('file', { required: true }) file: UploadedFile) {
 *   return { filename: file.filename, size: file.size };
 * }
 * @Post('/avatar') avatar(@UploadedFile('image') image: UploadedFile | undefined) {
 *   return image ? { size: image.size } : { size: 0 };
 * }
 * ```
 */
export function UploadedFile(name: string, options: { description?: string; required?: boolean } = {}): ParameterDecorator {
  return record({ kind: 'file', name, description: options.description, ...(options.required ? { required: true } : {}) });
}

/** What an `@UploadedFile` parameter receives: `{ fieldname, filename, mimetype, size, buffer, path, bytes(), stream() }`. */
export type UploadedFile = FormFile;
