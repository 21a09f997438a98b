import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Exclude, Expose, Transform, TransformationType, Type } from 'class-transformer';
import type { MetadataStorage as TransformerStorage } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage, IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';

// What trellis reads of its validation libraries beyond their documented functions, so that an upgrade which
// changes it fails here, by name, rather than as a wrong 422 somewhere else:
// - class-transformer's decorator store, `class-transformer/cjs/storage` (framework/pipeline/declared-shape.ts
//   decides per property whether a body value goes through plainToInstance; framework/openapi/schemas.ts finds
//   `@Type` targets). class-transformer exports no reader of it.
// - class-validator's `getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false)` (exported, but its
//   arguments are positional internals): the rules of a DTO, as hasValidationRules and declared-shape.ts read them.
// Validation itself goes through class-validator's public `validate` (framework/pipeline/validate.ts).
const { defaultMetadataStorage: storage } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: TransformerStorage;
};

class Tag {
  @IsString() label!: string;
}

class Card {
  @IsString() title!: string;
  @IsOptional() @IsInt() @Transform(({ value }) => Number(value)) count?: number;
  @IsOptional() @IsString() @Expose({ name: 'display_name' }) displayName?: string;
  @IsOptional() @IsString() @Exclude() secret?: string;
  @IsOptional() @ValidateNested() @Type(() => Tag) tag?: Tag;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Tag) tags?: Tag[];
}

@Expose()
class Exposed {
  @IsString() name!: string;
}

class Special extends Card {
  @IsOptional() @IsString() extra?: string;
}

describe('class-transformer decorator store (class-transformer/cjs/storage)', () => {
  it('holds @Type targets, found by class and property', () => {
    assert.equal(storage.findTypeMetadata(Card, 'tag')?.typeFunction(), Tag);
    assert.equal(storage.findTypeMetadata(Card, 'tags')?.typeFunction(), Tag);
    assert.equal(storage.findTypeMetadata(Card, 'title'), undefined);
  });

  it('holds @Expose names, @Exclude and a class-wide @Expose (property undefined)', () => {
    assert.equal(storage.findExposeMetadata(Card, 'displayName')?.options?.name, 'display_name');
    assert.equal(storage.findExposeMetadata(Card, 'title'), undefined);
    assert.ok(storage.findExcludeMetadata(Card, 'secret'));
    assert.equal(storage.findExcludeMetadata(Card, 'title'), undefined);
    assert.ok(storage.findExposeMetadata(Exposed, undefined as unknown as string));
    assert.equal(storage.findExposeMetadata(Card, undefined as unknown as string), undefined);
  });

  it('holds @Transform by transformation type, whose PLAIN_TO_CLASS is 0 (declared-shape.ts uses the number)', () => {
    assert.equal(TransformationType.PLAIN_TO_CLASS, 0);
    assert.equal(storage.findTransformMetadatas(Card, 'count', TransformationType.PLAIN_TO_CLASS).length, 1);
    assert.equal(storage.findTransformMetadatas(Card, 'title', TransformationType.PLAIN_TO_CLASS).length, 0);
  });

  it('finds what a subclass inherits', () => {
    assert.equal(storage.findTypeMetadata(Special, 'tag')?.typeFunction(), Tag);
    assert.equal(storage.findExposeMetadata(Special, 'displayName')?.options?.name, 'display_name');
  });
});

describe("class-validator's getTargetValidationMetadatas(cls, '', true, false)", () => {
  const rules = (cls: Function) => [
    ...getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false),
    ...getMetadataStorage().getTargetValidationMetadatas(cls, '', false, false),
  ];

  it('lists every rule with its propertyName, @ValidateNested as type nestedValidation', () => {
    const found = rules(Card);
    assert.deepEqual(
      [...new Set(found.map((m) => m.propertyName))].sort(),
      ['count', 'displayName', 'secret', 'tag', 'tags', 'title'],
    );
    assert.deepEqual(
      [...new Set(found.filter((m) => m.type === 'nestedValidation').map((m) => m.propertyName))].sort(),
      ['tag', 'tags'],
    );
  });

  it("includes inherited rules, and nothing for a class without rules (always=true alone is @IsOptional's)", () => {
    assert.ok(rules(Special).some((m) => m.propertyName === 'title'));
    assert.ok(rules(Special).some((m) => m.propertyName === 'extra'));
    class Loose { title!: string; }
    assert.equal(rules(Loose).length, 0);
    assert.equal(getMetadataStorage().getTargetValidationMetadatas(Loose, '', true, false).length, 0);
  });
});
