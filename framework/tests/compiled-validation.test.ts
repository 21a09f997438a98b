import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  Allow, ArrayMaxSize, ArrayMinSize, ArrayNotEmpty, Equals, IsArray, IsBoolean, IsDate, IsDateString, IsDefined,
  IsEmail, IsEmpty, IsEnum, IsIn, IsInt, IsISO8601, IsNegative, IsNotEmpty, IsNotIn, IsNumber, IsObject, IsOptional,
  IsPositive, IsString, IsUrl, IsUUID, Length, Matches, Max, MaxLength, Min, MinLength, NotEquals, ValidateIf,
} from 'class-validator';
import { length, maxLength, minLength } from 'class-validator';
import type { Class } from '../metadata';
import { BUILT_IN } from '../pipeline/compiled/rules';
import { bothWays } from './fixtures/both-validators';

// Every built-in rule the compiler supports (framework/pipeline/compiled/rules.ts, README "Validation"): one class
// each, a body it accepts and bodies it rejects; class-validator's details are the expected ones.
enum Color { Red = 'red', Blue = 'blue' }
enum Level { Low = 1, High = 2 }

class CString { @IsString() v!: string }
class CInt { @IsInt() v!: number }
class CNumber { @IsNumber() v!: number }
class CNumberOptions { @IsNumber({ allowNaN: false, maxDecimalPlaces: 2 }) v!: number }
class CBoolean { @IsBoolean() v!: boolean }
class CNotEmpty { @IsNotEmpty() v!: string }
class CEmpty { @IsEmpty() v?: string }
class CDefined { @IsDefined() v!: unknown }
class CArray { @IsArray() v!: unknown[] }
class CArrayMin { @ArrayMinSize(2) v!: unknown[] }
class CArrayMax { @ArrayMaxSize(2) v!: unknown[] }
class CArrayNotEmpty { @ArrayNotEmpty() v!: unknown[] }
class CMin { @Min(3) v!: number }
class CMax { @Max(3) v!: number }
class CMinLength { @MinLength(3) v!: string }
class CMaxLength { @MaxLength(3) v!: string }
class CLength { @Length(2, 4) v!: string }
class CMatches { @Matches(/^[a-z]+$/) v!: string }
class CMatchesModifiers { @Matches('^[a-z]+$', 'i') v!: string }
class CIn { @IsIn(['a', 'b', 1]) v!: unknown }
class CNotIn { @IsNotIn(['a', 'b']) v!: unknown }
class CEnum { @IsEnum(Color) v!: Color }
class CNumericEnum { @IsEnum(Level) v!: Level }
class CPositive { @IsPositive() v!: number }
class CNegative { @IsNegative() v!: number }
class CEmail { @IsEmail() v!: string }
class CUUID { @IsUUID('4') v!: string }
class CUrl { @IsUrl() v!: string }
class CISO8601 { @IsISO8601({ strict: true }) v!: string }
class CDateString { @IsDateString() v!: string }
class CObject { @IsObject() v!: object }
class CDate { @IsDate() v!: Date }
class CEquals { @Equals('yes') v!: string }
class CNotEquals { @NotEquals('no') v!: string }
class CAllow { @Allow() v!: unknown; @IsString() w!: string }
class COptional { @IsOptional() @IsInt() v?: number }
class CValidateIf { @IsString() kind!: string; @ValidateIf((o: CValidateIf) => o.kind === 'n') @IsInt() v?: number }

const CASES: Array<[Class, unknown, unknown[]]> = [
  [CString, 'x', [1, null, undefined, ['x'], {}]],
  [CInt, 3, [3.5, '3', null, Number.NaN]],
  [CNumber, 3.5, ['3', Number.NaN, Infinity, null]],
  [CNumberOptions, 3.25, [3.125, Number.NaN, '1']],
  [CBoolean, false, ['true', 0, null]],
  [CNotEmpty, 'x', ['', null, undefined]],
  [CEmpty, '', ['x', 0]],
  [CDefined, 0, [null, undefined]],
  [CArray, [1], ['x', {}, null]],
  [CArrayMin, [1, 2], [[1], 'xy', null]],
  [CArrayMax, [1, 2], [[1, 2, 3], 'x']],
  [CArrayNotEmpty, [0], [[], 'x']],
  [CMin, 3, [2, '5', null]],
  [CMax, 3, [4, '1']],
  [CMinLength, 'abc', ['ab', 3, null]],
  [CMaxLength, 'abc', ['abcd', 3]],
  [CLength, 'abc', ['a', 'abcde', '', 3, null]],
  [CMatches, 'abc', ['ABC', 1, '']],
  [CMatchesModifiers, 'ABC', ['a1', null]],
  [CIn, 1, ['c', '1', null]],
  [CNotIn, 'c', ['a', 'b']],
  [CEnum, 'red', ['green', 0, null]],
  [CNumericEnum, 2, [3, '1']],
  [CPositive, 1, [0, -1, '1']],
  [CNegative, -1, [0, 1, '-1']],
  [CEmail, 'ada@example.com', ['ada', 'a@b', 7]],
  [CUUID, '3f1c2a4e-8b6d-4c1a-9e2f-7a5b3c9d1e0f', ['x', '3f1c2a4e-8b6d-1c1a-9e2f-7a5b3c9d1e0f', 1]],
  [CUrl, 'https://example.com/a', ['nope', 'ftp//x', 1]],
  [CISO8601, '2026-11-23T06:30:00Z', ['2026-13-01', 'x', 20261123]],
  [CDateString, '2026-11-23', ['23/11/2026', 1]],
  [CObject, { a: 1 }, ['x', [1], null]],
  [CDate, new Date(0), ['2026-11-23', 0]],
  [CEquals, 'yes', ['no', true]],
  [CNotEquals, 'yes', ['no']],
  [CAllow, 'anything', [5]],
  [COptional, 3, ['x', 1.5]],
];

describe('compiled validation: each supported built-in rule gives class-validator\'s outcome', () => {
  for (const [cls, valid, invalids] of CASES) {
    it(`${cls.name}: accepts ${JSON.stringify(valid)} and rejects ${invalids.length} values as class-validator does`, async () => {
      const ok = await bothWays(cls, { v: valid, w: 'w' });
      assert.deepEqual(ok.compiled, ok.reference);
      if (cls !== CAllow) assert.deepEqual(ok.compiled.details, []);
      for (const value of invalids) {
        const bad = await bothWays(cls, { v: value });
        assert.deepEqual(bad.compiled, bad.reference, JSON.stringify(value));
        assert.notEqual(bad.compiled.details.length, 0, `${cls.name} rejects ${JSON.stringify(value)}`);
      }
    });
  }

  it('IsOptional skips null and undefined but not other values', async () => {
    for (const body of [{}, { v: null }, { v: undefined }, { v: 'x' }]) {
      const both = await bothWays(COptional, body);
      assert.deepEqual(both.compiled, both.reference);
    }
    assert.deepEqual((await bothWays(COptional, { v: null })).compiled.details, []);
  });

  it('ValidateIf runs the rules of a property only when its condition holds', async () => {
    for (const body of [{ kind: 'n', v: 'x' }, { kind: 's', v: 'x' }, { kind: 'n', v: 2 }, { v: 1 }]) {
      const both = await bothWays(CValidateIf, body);
      assert.deepEqual(both.compiled, both.reference, JSON.stringify(body));
    }
    assert.equal((await bothWays(CValidateIf, { kind: 'n', v: 'x' })).compiled.details[0].message, 'v must be an integer number');
    assert.deepEqual((await bothWays(CValidateIf, { kind: 's', v: 'x' })).compiled.details, []);
  });
});

describe('compiled validation: string lengths count as validator.js counts them', () => {
  // Surrogate pairs and variation selectors each count once less, as validator.js's two regular expressions find them
  // (U+FE0F after a pair's low half counts twice less; a lone half or a leading selector counts as itself).
  const UNITS = ['a', '\uFE0E', '\uFE0F', '\uD83D', '\uDE00', '\uDFFF', '\u2764'];
  const texts = [''];
  for (let i = 0; texts[i].length < 5; i++) for (const unit of UNITS) texts.push(texts[i] + unit);

  it(`MinLength, MaxLength and Length agree with class-validator on all ${UNITS.length ** 5 + UNITS.length ** 4}+ strings of up to five tricky units`, () => {
    const rule = (name: string, ...constraints: unknown[]) => BUILT_IN.get(name)!.test(constraints);
    const cases: Array<[string, (text: string) => boolean, (text: string) => boolean]> = [];
    for (const n of [0, 1, 2, 3, 4]) {
      cases.push([`minLength ${n}`, rule('minLength', n), (text) => minLength(text, n)]);
      cases.push([`maxLength ${n}`, rule('maxLength', n), (text) => maxLength(text, n)]);
      cases.push([`isLength ${n}-${n + 1}`, rule('isLength', n, n + 1), (text) => length(text, n, n + 1)]);
    }
    let compared = 0;
    for (const text of texts) {
      for (const [name, compiled, reference] of cases) {
        if (compiled(text) !== reference(text)) assert.fail(`${name} of ${JSON.stringify(text)}: ${compiled(text)} where class-validator says ${reference(text)}`);
        compared++;
      }
    }
    assert.equal(compared, texts.length * cases.length);
    assert.equal(rule('minLength', 1)(5), false, 'a number is not a string of any length');
  });
});

