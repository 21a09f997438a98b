import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import {
  ArrayMaxSize, IsArray, IsBoolean, IsDate, IsEnum, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { BaseRouter, Get, router } from '../index';
import { Header, Query } from '../param';

enum Level { Low = 1, High = 2 }

class ListQuery {
  @JSONSchema({ description: 'How many tasks a page holds' })
  @IsInt() @Min(1) @Max(100) limit = 20;
  @IsOptional() @IsString() @MinLength(2) @MaxLength(20) @Matches(/^[a-z]+$/) q?: string;
  @IsOptional() @IsBoolean() done?: boolean;
  @IsDate() since!: Date;
  @IsOptional() @IsEnum(Level) level?: Level;
  @IsOptional() @IsArray() @IsString({ each: true }) @ArrayMaxSize(3) tag?: string[];
  @IsOptional() @IsInt({ each: true }) @Min(1, { each: true }) ids?: number[];
}

class TraceHeaders {
  @IsString() requestId!: string;
  @IsOptional() @IsString() 'X-Trace-Id'?: string;
}

class Tasks extends router('/tasks') {
  @Get() list(@Query('verbose', { default: false }) verbose: boolean, @Query() query: ListQuery, @Header() headers: TraceHeaders) {
    return { verbose, limit: query.limit, requestId: headers.requestId };
  }
}

const document = new BaseRouter().includeRouter(new Tasks()).openapi();
const operation = (document.paths['/tasks'] as Record<string, { parameters: unknown[]; responses: Record<string, unknown> }>).get;

describe('@Query() / @Header() classes in the OpenAPI document', () => {
  it('documents each property as its own parameter, with its type, constraints, default and requiredness', () => {
    assert.deepEqual(operation.parameters, [
      { name: 'verbose', in: 'query', required: false, schema: { type: 'boolean', default: false } },
      { name: 'limit', in: 'query', required: false, description: 'How many tasks a page holds', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
      { name: 'q', in: 'query', required: false, schema: { type: 'string', minLength: 2, maxLength: 20, pattern: '^[a-z]+$' } },
      { name: 'done', in: 'query', required: false, schema: { type: 'boolean' } },
      { name: 'since', in: 'query', required: true, schema: { type: 'string', format: 'date-time' } },
      { name: 'level', in: 'query', required: false, schema: { type: 'number', enum: [1, 2] } },
      { name: 'tag', in: 'query', required: false, explode: true, schema: { type: 'array', maxItems: 3, items: { type: 'string' } } },
      { name: 'ids', in: 'query', required: false, explode: true, schema: { type: 'array', items: { type: 'integer', minimum: 1 } } },
      { name: 'Request-Id', in: 'header', required: true, schema: { type: 'string' } },
      { name: 'X-Trace-Id', in: 'header', required: false, schema: { type: 'string' } },
    ]);
  });

  it('documents the 422 the classes may answer, in a valid document', async () => {
    class HeadersOnly extends router('/only') {
      @Get() read(@Header() headers: TraceHeaders) { return { id: headers.requestId }; }
    }
    const only = new BaseRouter().includeRouter(new HeadersOnly()).openapi();
    for (const responses of [operation.responses, (only.paths['/only'] as typeof document.paths[string]).get!.responses]) {
      assert.deepEqual(responses['422'], {
        description: 'Validation Error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } },
      });
    }
    await SwaggerParser.validate(structuredClone(document) as never);
  });

  it('documents an array default, and no Date default (the moment the class was read)', () => {
    class Dated {
      @IsDate() until = new Date();
      @IsString({ each: true }) tags: string[] = [];
    }
    class DatedRouter extends router('/dated') {
      @Get() list(@Query() query: Dated) { return { count: query.tags.length }; }
    }
    const paths = new BaseRouter().includeRouter(new DatedRouter()).openapi().paths;
    assert.deepEqual((paths['/dated'] as typeof document.paths[string]).get!.parameters, [
      { name: 'until', in: 'query', required: false, schema: { type: 'string', format: 'date-time' } },
      { name: 'tags', in: 'query', required: false, explode: true, schema: { type: 'array', items: { type: 'string' }, default: [] } },
    ]);
  });

  it('adds no component for the classes themselves', () => {
    const schemas = Object.keys(document.components?.schemas ?? {});
    assert.ok(!schemas.includes('ListQuery') && !schemas.includes('TraceHeaders'), schemas.join(', '));
  });
});
