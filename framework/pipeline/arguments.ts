import { requestValidationFailure, type ValidationDetail } from '../http-exception';
import { positiveLimit, TrellisError } from '../framework-error';
import type { ParamDefinition } from '../metadata';
import type { Class } from '../core/types';
import type { Request } from '../request';
import { readJsonArgument, type JsonCallback } from './body-reader';
import { converterFor, INVALID, INVALID_MESSAGE } from './convert';
import { compileConstraints } from './constraints';
import { valueTypeOf } from './value-type';
import { tooManyItems } from './body';
import { assertPropertyNames } from './property-names';
import { compileValidator, hasValidationRules, joinField } from './validate';
import { fileExtractor } from '../uploads/file-param';
import { isValueClass, valueClassOf } from './value-class';
import { valueClassReader } from './value-class-reader';

/** Reads one argument that needs no body; pushes what fails its checks to `details`. */
export type SyncExtractor = (request: Request, details: ValidationDetail[]) => unknown;
/** What a reader of the body calls back with: an error, or `null` and the argument (as the body reader does). */
type Done = JsonCallback;
/** A reader of the body (JSON, files): it calls `done` once, from the events that bring the body. */
type BodyExtractor = (request: Request, details: ValidationDetail[], done: Done) => void;

/**
 * Builds `request -> handler arguments` once per route; throws a 422 with every failed check. A route that reads
 * the body returns {@link PendingArguments} instead of the arguments.
 */
export type ArgumentsReader = (request: Request) => unknown[] | PendingArguments;

/**
 * Arguments that wait for the body: called with `done`, it calls it once, from the body's events, with the
 * arguments or the error (a 422 with every failed check, a 400, 413 or 415 of the body). The dispatcher settles
 * one promise for the body, the handler and its response.
 */
export type PendingArguments = (done: (error: unknown, args?: unknown[]) => void) => void;

export interface RouteSignature {
  /** `TaskRouter.one`, for error messages. */
  label: string;
  path: string;
  pathParams: string[];
  params: ParamDefinition[];
  /** `design:paramtypes` of the handler. */
  designTypes: unknown[];
}

export function compileArguments(route: RouteSignature): { read: ArgumentsReader; takesBody: boolean } {
  const count = Math.max(route.designTypes.length, ...route.params.map((p) => p.index + 1), 0);
  const extractors: Array<[number, SyncExtractor]> = [];
  // Readers that consume the body (JSON, files), run after the synchronous ones.
  const deferred: Array<[number, BodyExtractor]> = [];
  for (const param of [...route.params].sort((a, b) => a.index - b.index)) {
    const designType = route.designTypes[param.index];
    if (param.kind === 'body') deferred.push([param.index, bodyExtractor(route, param, designType)]);
    else if (param.kind === 'file') deferred.push([param.index, calledBack(fileExtractor(route.label, param, route.params))]);
    else if (param.kind === 'request') extractors.push([param.index, (request) => request]);
    else if (isValueClass(param)) extractors.push([param.index, valueClassReader(valueClassOf(route.label, param, designType))]);
    else if (param.kind === 'path' || param.kind === 'query' || param.kind === 'header') {
      extractors.push([param.index, valueExtractor(route, param, designType)]);
    }
  }

  const indexes = extractors.map(([index]) => index);
  const readers = extractors.map(([, extract]) => extract);
  const readSync = (request: Request, details: ValidationDetail[]): unknown[] => {
    const args = new Array(count);
    for (let i = 0; i < readers.length; i++) args[indexes[i]] = readers[i](request, details);
    return args;
  };

  if (deferred.length === 0) {
    const read: ArgumentsReader = (request) => {
      const details: ValidationDetail[] = [];
      const args = readSync(request, details);
      if (details.length) throw requestValidationFailure(details);
      return args;
    };
    return { read, takesBody: false };
  }
  // The body's readers call back in turn, from the stream's events; `done` is called once, even by a reader that
  // throws after calling back.
  const read: ArgumentsReader = (request) => (done) => {
    const details: ValidationDetail[] = [];
    let args: unknown[];
    try {
      args = readSync(request, details);
    } catch (failure) {
      return done(failure);
    }
    let next = 0;
    let settled = false;
    const finish = (error: unknown, read?: unknown[]) => {
      if (settled) return;
      settled = true;
      done(error, read);
    };
    const step: Done = (error, value) => {
      if (error !== null) return finish(orUnreadable(error));
      if (next > 0) args[deferred[next - 1][0]] = value;
      if (next === deferred.length) return details.length ? finish(requestValidationFailure(details)) : finish(null, args);
      const extract = deferred[next++][1];
      try {
        extract(request, details, step);
      } catch (failure) {
        finish(failure);
      }
    };
    step(null);
  };
  return { read, takesBody: true };
}

// A reader that returns a promise, as a reader that calls back.
function calledBack(extract: (request: Request, details: ValidationDetail[]) => Promise<unknown>): BodyExtractor {
  return (request, details, done) => extract(request, details).then((value) => done(null, value), (error: unknown) => done(orUnreadable(error)));
}

// A failure with no error given (a rejection with `undefined`) still fails the request.
function orUnreadable(error: unknown): unknown {
  return error ?? new Error('The request body could not be read');
}

/** The reader of a path, query or header value (a request-scoped provider's constructor reads them too). */
export function valueExtractor(route: RouteSignature, param: ParamDefinition, designType: unknown): SyncExtractor {
  const name = param.name!;
  const location = param.kind as 'path' | 'query' | 'header';
  if (location === 'path' && !route.pathParams.includes(name)) {
    throw new TrellisError('TRELLIS_ERR_PARAM_UNDECLARED', route.label, name, name, route.path);
  }
  const type = valueTypeOf(route.label, param, designType);
  const elementType = Array.isArray(type) ? type[0] : type;
  const convert = converterFor(elementType);
  const invalid = INVALID_MESSAGE[elementType];
  // Checked against the type when the decorator ran; compiled here, once per route.
  const check = param.constraints && compileConstraints(param.constraints);
  const { hasDefault } = param;
  const fallback = param.default;

  const raw: (request: Request) => string | string[] | undefined =
    location === 'path'
      ? (request) => request.params[name]
      : location === 'query'
        ? (request) => request.query[name]
        : (request) => request.headers[name];

  const absent = (details: ValidationDetail[]): unknown => {
    if (hasDefault) return fallback;
    details.push({ location, field: name, message: 'Field required' });
    return undefined;
  };

  if (Array.isArray(type)) {
    return (request, details) => {
      const value = raw(request);
      if (value === undefined) return absent(details);
      const texts = Array.isArray(value) ? value : [value];
      const out = new Array(texts.length);
      for (let i = 0; i < texts.length; i++) {
        out[i] = convert(texts[i]);
        const message = out[i] === INVALID ? invalid : check?.(out[i]);
        if (message) details.push({ location, field: `${name}[${i}]`, message });
      }
      return out;
    };
  }
  return (request, details) => {
    let value = raw(request);
    if (value === undefined) return absent(details);
    if (typeof value !== 'string') value = value[value.length - 1];
    const converted = convert(value);
    const message = converted === INVALID ? invalid : check?.(converted);
    if (message) details.push({ location, field: name, message });
    return converted;
  };
}

/** The most elements of an array body (`@Body({ type: Item })`) unless `maxItems` says otherwise. */
export const DEFAULT_MAX_ITEMS = 1000;

const PLAIN_TYPES = new Set<unknown>([Object, Array, String, Number, Boolean, undefined]);

/** The class a `@Body()` argument is validated against: `@Body({ type: Item })`'s item class, else its declared class. */
export function bodyClassOf(param: ParamDefinition, designType: unknown): Class | undefined {
  return (param.type as Class | undefined) ?? (PLAIN_TYPES.has(designType) ? undefined : (designType as Class));
}

function bodyExtractor(route: RouteSignature, param: ParamDefinition, designType: unknown): BodyExtractor {
  const elementClass = param.type as Class | undefined;
  const validated = bodyClassOf(param, designType);
  if (validated && !hasValidationRules(validated)) {
    throw new TrellisError('TRELLIS_ERR_BODY_UNVALIDATED', route.label, validated.name);
  }
  if (validated) assertPropertyNames(validated, route.label);
  const toValidInstance = validated && compileValidator(validated);
  // Every body route refuses a long array before parsing it: a DTO route answers a short one with a 422.
  const maxItems = positiveLimit('maxItems', param.maxItems ?? DEFAULT_MAX_ITEMS);

  const required = (details: ValidationDetail[], done: Done) => {
    details.push({ location: 'body', field: '', message: 'Field required' });
    done(null, undefined);
  };
  const validate = (value: unknown, details: ValidationDetail[]): unknown => {
    // Already checked before parsing, unless an Express body parser read the body first.
    if (Array.isArray(value) && value.length > maxItems) throw tooManyItems(maxItems);
    if (!toValidInstance) return value;
    if (!elementClass) return toValidInstance(value, '', details);
    if (!Array.isArray(value)) {
      details.push({ location: 'body', field: '', message: 'Input should be an array' });
      return undefined;
    }
    const items = value.map((item, i) => toValidInstance(item, joinField('', i), details));
    return items.some((item) => item instanceof Promise) ? Promise.all(items) : items;
  };

  return (request, details, done) => {
    // No Content-Type and no body (no Content-Length above 0, no Transfer-Encoding) is `undefined`: a missing body.
    readJsonArgument(request, maxItems, (error, value) => {
      if (error !== null) return done(error);
      if (value === undefined) return required(details, done);
      let instance: unknown;
      try {
        instance = validate(value, details);
      } catch (failure) {
        return done(failure);
      }
      if (instance instanceof Promise) instance.then((valid: unknown) => done(null, valid), (failure: unknown) => done(failure ?? new Error('The request body could not be validated')));
      else done(null, instance);
    });
  };
}
