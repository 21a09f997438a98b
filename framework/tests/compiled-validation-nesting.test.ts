import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'class-transformer';
import {
  IsDefined, IsInt, IsOptional, IsString, Length, Matches, MaxLength, Min, ValidateIf, ValidateNested,
  type ValidationArguments,
} from 'class-validator';
import type { Class } from '../metadata';
import { bothWays } from './fixtures/both-validators';

class Tag {
  @IsString() @MaxLength(5) label!: string;
}

class Line {
  @IsString() name!: string;
  @IsInt() @Min(1) quantity!: number;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Tag) tags?: Tag[];
}

class Order {
  @IsString() @Length(1, 10) title!: string;
  @ValidateNested({ each: true }) @Type(() => Line) lines!: Line[];
  @IsOptional() @ValidateNested() @Type(() => Tag) main?: Tag;
  // No @Type: class-transformer leaves a plain object, which forbidUnknownValues rejects.
  @IsOptional() @ValidateNested() meta?: object;
}

class Tree {
  @IsString() name!: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Tree) children?: Tree[];
}

class Base {
  @IsString() id!: string;
}
class Derived extends Base {
  @IsInt() @Min(0) rank!: number;
}

class Messages {
  @IsString({ message: '$property of $target must be text, not $value' }) a!: string;
  @Min(10, { message: (args: ValidationArguments) => `${args.property}=${String(args.value)} < ${args.constraints[0]}` }) b!: number;
  @Length(2, 3, { each: true }) c!: string[];
  @Matches(/^x/, { message: 'needs $constraint1' }) d!: string;
  @IsDefined({ message: 'e is required' }) @IsString() e!: string;
  @MaxLength(2, { message: '$value is too long' }) f!: string;
}

class Twice {
  @Min(5) @Min(10, { message: 'second' }) v!: number;
  @ValidateIf(() => true) @ValidateIf((_o: Twice, value: unknown) => value !== 'skip') @IsInt() w!: unknown;
}

async function same(cls: Class, body: object) {
  const both = await bothWays(cls, body);
  assert.deepEqual(both.compiled, both.reference, JSON.stringify(body));
  return both.compiled;
}

describe('compiled validation: nesting, whitelisting and messages as class-validator', () => {
  it('validates nested DTOs and arrays of them, with the same field paths and order', async () => {
    const ok = await same(Order, { title: 'o', lines: [{ name: 'a', quantity: 1, tags: [{ label: 'x' }] }], main: { label: 'm' } });
    assert.deepEqual(ok.details, []);
    const bad = await same(Order, {
      title: '',
      lines: [{ name: 1, quantity: 0, tags: [{ label: 'toolong' }, 'x', null] }, 7, null, [{ name: 'deep', quantity: 'x' }]],
      main: 'm',
      meta: { any: 1 },
    });
    assert.deepEqual(bad.details.map((d) => d.field), [
      'title', 'lines[0].name', 'lines[0].quantity', 'lines[0].tags[0].label', 'lines[0].tags[1]',
      'lines[0].tags[2]', 'lines[1]', 'lines[2]', 'lines[3][0].quantity', 'lines[3][0].quantity', 'main', 'meta.undefined',
    ]);
  });

  it('rejects a nested value that is not an object, and a missing or object-shaped array', async () => {
    for (const lines of [undefined, null, 'x', 3, { name: 'a', quantity: 1 }, [], {}]) await same(Order, { title: 't', lines });
  });

  it('strips undeclared properties at every level, as whitelisting does', async () => {
    const out = await same(Order, {
      title: 't', extra: 1, lines: [{ name: 'a', quantity: 2, secret: 's', tags: [{ label: 'l', color: 'red' }] }],
      main: { label: 'm', x: 1 },
    });
    assert.deepEqual(JSON.parse(JSON.stringify(out.instance)), {
      title: 't', lines: [{ name: 'a', quantity: 2, tags: [{ label: 'l' }] }], main: { label: 'm' },
    });
  });

  it('validates a class nesting itself and inherited rules', async () => {
    await same(Tree, { name: 'root', children: [{ name: 'a', children: [{ name: 3, x: 1 }] }, { children: 'no' }] });
    await same(Derived, { id: 'x', rank: 1, more: true });
    const out = await same(Derived, { id: 1, rank: -1 });
    assert.deepEqual(out.details.map((d) => d.field), ['rank', 'id']);
  });

  it('gives custom messages (string with tokens, function) and each-messages as class-validator', async () => {
    await same(Messages, { a: 'x', b: 10, c: ['ab'], d: 'xy', e: 'e', f: 'ab' });
    const out = await same(Messages, { a: 5, b: 3, c: ['a', 'abcd'], d: 'y', f: 'abc' });
    assert.deepEqual(out.details.map((d) => d.message), [
      'a of Messages must be text, not 5', 'b=3 < 10',
      // Length words its message from the whole array's length under `each`, as class-validator does.
      'each value in c must be longer than or equal to 2 and shorter than or equal to 3 characters',
      'needs /^x/', 'e is required', 'e must be a string', 'abc is too long',
    ]);
    await same(Messages, { a: true, b: 'x', c: 'abcd', d: null, e: null, f: 12 });
  });

  it('keeps one message per rule name (the last failing rule\'s, decorators apply bottom-up) and calls every condition', async () => {
    const out = await same(Twice, { v: 1, w: 'x' });
    assert.deepEqual(out.details.map((d) => d.message), ['v must not be less than 5', 'w must be an integer number']);
    assert.deepEqual((await same(Twice, { v: 7, w: 'skip' })).details.map((d) => d.message), ['second']);
  });
});
