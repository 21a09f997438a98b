import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Type } from 'class-transformer';
import {
  ArrayMinSize, IsArray, IsEmail, IsIn, IsInt, IsOptional, IsPositive, IsString, Max, MaxLength, Min, MinLength, ValidateNested,
} from 'class-validator';
import { BaseRouter, Post, Put, router } from '../index';
import { Body, Int, Path, Req, UploadedFile } from '../param';
import type { Request } from '../index';

class Label {
  @IsString() @MinLength(1) @MaxLength(20) name!: string;
}

class Step {
  @IsString() text!: string;
  @ValidateNested({ each: true }) @Type(() => Label) labels!: Label[];
}

class TaskIn {
  @IsString() @MinLength(1) @MaxLength(100) title!: string;
  @IsInt() @Min(1) @Max(5) priority!: number;
  @IsPositive() estimate!: number;
  @IsOptional() @IsEmail() owner?: string;
  @IsIn(['low', 'high']) urgency!: string;
  @IsArray() @ArrayMinSize(1) @IsString({ each: true }) tags!: string[];
  @ValidateNested({ each: true }) @Type(() => Step) steps!: Step[];
  @IsOptional() @ValidateNested() @Type(() => Label) main?: Label;
}

class TaskRouter extends router('/tasks') {
  @Post() create(@Body({ description: 'The new task' }) body: TaskIn) { return body; }
  @Post('/batch') createMany(@Body({ type: TaskIn }) items: TaskIn[]) { return items; }
  @Put('/{task_id}/raw') raw(@Path('task_id', { type: Int }) id: number, @Body() body: object) { return { id, body }; }
  @Post('/{task_id}/attachments') attach(
    @Path('task_id', { type: Int }) id: number,
    @UploadedFile('file', { description: 'The attachment' }) file: UploadedFile | undefined,
    @UploadedFile('thumbnail') thumbnail: UploadedFile | undefined,
  ) { return { id, file: file?.filename, thumbnail: thumbnail?.filename }; }
  @Post('/import') import(@Req() request: Request) { return request.method; }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const document = (): any => new BaseRouter().includeRouter(new TaskRouter()).openapi();

describe('OpenAPI request bodies', () => {
  it('are valid OpenAPI', async () => {
    await SwaggerParser.validate(structuredClone(document()));
  });

  it('document a DTO body as a required JSON body referring to its schema', () => {
    assert.deepEqual(document().paths['/tasks'].post.requestBody, {
      required: true,
      description: 'The new task',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/TaskIn' } } },
    });
  });

  it('carry the class-validator constraints into the schema', () => {
    const schema = document().components.schemas.TaskIn;
    assert.equal(schema.type, 'object');
    assert.deepEqual(schema.required, ['title', 'priority', 'estimate', 'urgency', 'tags', 'steps']);
    const p = schema.properties;
    assert.deepEqual(p.title, { type: 'string', minLength: 1, maxLength: 100 });
    assert.deepEqual(p.priority, { type: 'integer', minimum: 1, maximum: 5 });
    assert.deepEqual(p.estimate, { type: 'number', exclusiveMinimum: 0 });
    assert.deepEqual(p.owner, { type: 'string', format: 'email' });
    assert.deepEqual(p.urgency, { type: 'string', enum: ['low', 'high'] });
    assert.deepEqual(p.tags, { type: 'array', minItems: 1, items: { type: 'string' } });
    assert.deepEqual(p.main, { $ref: '#/components/schemas/Label' });
  });

  it('resolve nested DTO arrays (two levels deep) instead of `$ref: Array`', () => {
    const { schemas } = document().components;
    assert.deepEqual(schemas.TaskIn.properties.steps, { type: 'array', items: { $ref: '#/components/schemas/Step' } });
    assert.deepEqual(schemas.Step.properties.labels, { type: 'array', items: { $ref: '#/components/schemas/Label' } });
    assert.deepEqual(schemas.Label, {
      type: 'object',
      properties: { name: { type: 'string', minLength: 1, maxLength: 20 } },
      required: ['name'],
    });
    assert.equal(JSON.stringify(document()).includes('schemas/Array'), false);
  });

  it('document a list body as `type: array, items: $ref`', () => {
    assert.deepEqual(document().paths['/tasks/batch'].post.requestBody, {
      required: true,
      content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/TaskIn' } } } },
    });
  });

  it('document an untyped body as any JSON', () => {
    assert.deepEqual(document().paths['/tasks/{task_id}/raw'].put.requestBody.content, { 'application/json': { schema: {} } });
  });

  it('document uploads as multipart/form-data with a binary field per @UploadedFile', () => {
    const operation = document().paths['/tasks/{task_id}/attachments'].post;
    assert.deepEqual(operation.requestBody, {
      required: false,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: {
              file: { type: 'string', format: 'binary', description: 'The attachment' },
              thumbnail: { type: 'string', format: 'binary' },
            },
          },
        },
      },
    });
  });

  it('leave out a body the handler reads itself with @Req()', () => {
    const operation = document().paths['/tasks/import'].post;
    assert.equal(operation.requestBody, undefined);
    assert.equal(operation.responses['422'], undefined);
  });
});
