import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Exclude, Expose, plainToInstance, Transform, Type } from 'class-transformer';
import type { MetadataStorage as TransformerStorage } from 'class-transformer/types/MetadataStorage';
import { IsArray, IsBoolean, IsInt, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import fc from 'fast-check';
import type { Class } from '../metadata';
import { pruner } from '../pipeline/declared-shape';
import { buildsWithoutTransformer, instanceBuilder } from '../pipeline/instance';

// The instance trellis built before instanceBuilder: pruner + class-transformer's plainToInstance + patch.
function transformerPath(cls: Class): (plain: Record<string, unknown>) => object {
  const prune = pruner(cls);
  return (plain) => {
    const { input, patch } = prune(plain);
    const instance = plainToInstance(cls, input) as Record<string, unknown>;
    patch?.(instance);
    return instance;
  };
}

/** Same prototypes, same own keys in the same order, same values, all the way down. */
function assertSame(actual: unknown, expected: unknown, path = '$'): void {
  if (typeof expected === 'function') {
    // A field initialiser makes one function per instance: the same source is the same function.
    assert.equal(String(actual), String(expected), `${path}: function`);
    return;
  }
  if (typeof expected !== 'object' || expected === null) {
    assert.ok(Object.is(actual, expected), `${path}: ${String(actual)} is not ${String(expected)}`);
    return;
  }
  assert.ok(typeof actual === 'object' && actual !== null, `${path}: not an object`);
  assert.equal(Object.getPrototypeOf(actual), Object.getPrototypeOf(expected), `${path}: prototype`);
  assert.deepEqual(Reflect.ownKeys(actual), Reflect.ownKeys(expected), `${path}: own keys`);
  if (expected instanceof Set) assertSame([...(actual as Set<unknown>)], [...expected], `${path}(set)`);
  for (const key of Reflect.ownKeys(expected)) {
    const a: PropertyDescriptor = Object.getOwnPropertyDescriptor(actual, key)!;
    const e: PropertyDescriptor = Object.getOwnPropertyDescriptor(expected, key)!;
    assert.equal(typeof a.value, typeof e.value, `${path}.${String(key)}: kind`);
    assertSame(a.value, e.value, `${path}.${String(key)}`);
  }
}

/** Builds `body` both ways (each from its own copy) and compares. */
function same(cls: Class, body: unknown): object {
  const json = JSON.stringify(body);
  const expected = transformerPath(cls)(JSON.parse(json));
  const actual = instanceBuilder(cls)(JSON.parse(json));
  assertSame(actual, expected);
  return actual;
}

class Flat {
  @IsString() title!: string;
  @IsOptional() @IsString() description?: string;
  @IsOptional() @IsBoolean() completed?: boolean;
  @IsOptional() @IsObject() meta?: Record<string, unknown>;
  @IsOptional() @IsArray() tags?: unknown[];
}

class Defaults {
  @IsOptional() @IsBoolean() completed = false;
  @IsOptional() @IsInt() priority = 3;
  @IsOptional() @IsArray() tags: string[] = ['new'];
  note = 'undeclared initialiser';
}

class Address {
  @IsString() city!: string;
  @IsOptional() @IsString() zip?: string;
  country = 'NL';
}

class Line {
  @IsString() sku!: string;
  @IsInt() quantity!: number;
  @IsOptional() @ValidateNested() @Type(() => Address) shipTo?: Address;
}

class Order {
  @IsString() reference!: string;
  @IsOptional() @ValidateNested() @Type(() => Address) address?: Address;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Line) lines: Line[] = [];
  @IsOptional() @IsObject() extra?: object;
}

class Tree {
  @IsString() name!: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Tree) children?: Tree[];
  @IsOptional() @ValidateNested() @Type(() => Tree) parent?: Tree;
}

class Accessors {
  #name = '';
  @IsOptional() @IsString() get fixed(): string {
    return 'fixed';
  }

  @IsOptional() @IsString() get name(): string {
    return this.#name;
  }

  set name(value: string) {
    this.#name = `set:${value}`;
  }

  @IsOptional() @ValidateNested() @Type(() => Address) get home(): Address {
    return Object.assign(new Address(), { city: 'from getter' });
  }

  @IsOptional() @ValidateNested() @Type(() => Address) callback: unknown = () => 'kept';
  @IsOptional() @IsString() plain?: string;
  describe(): string {
    return 'method';
  }
}
// A rule on a method name: neither path sets the body's value over the method.
IsString()(Accessors.prototype, 'describe');

class Base {
  @IsString() id!: string;
  @IsOptional() @IsInt() version = 1;
  get label(): string {
    return 'base';
  }
}

class Derived extends Base {
  @IsOptional() @ValidateNested() @Type(() => Address) address?: Address;
}
// A rule on the inherited getter: the body's label is not set over it.
IsString()(Derived.prototype, 'label');

class Indexed {
  @IsOptional() @IsString() b?: string;
  @IsOptional() @ValidateNested() @Type(() => Address) '2'?: Address;
  @IsOptional() @IsString() '1'?: string;
  @IsOptional() @ValidateNested() @Type(() => Address) a?: Address;
}

class Collections {
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Address) set?: Set<Address>;
  @IsOptional() @ValidateNested() @Type(() => Address) single?: Address;
}

class Transformed {
  @IsString() @Transform(({ value }) => String(value).trim()) name!: string;
  @IsOptional() @ValidateNested() @Type(() => Address) address?: Address;
}

class Renamed {
  @IsString() @Expose({ name: 'display_name' }) displayName!: string;
  @IsOptional() @IsInt() count?: number;
}

@Exclude()
class ExcludeAll {
  @Expose() @IsString() name!: string;
  @IsOptional() @IsString() secret?: string;
}

class HoldsTransformed {
  @IsString() title!: string;
  @IsOptional() @ValidateNested() @Type(() => Transformed) inner?: Transformed;
}

class Discriminated {
  @IsOptional() @ValidateNested() @Type(() => Address, { keepDiscriminatorProperty: true }) address?: Address;
}

class NotNested {
  @IsOptional() @IsObject() @Type(() => Address) address?: Address;
}

class ExposesUndeclared {
  @IsString() name!: string;
  @Expose() computed?: string;
}

describe('instanceBuilder: without class-transformer, the same instance', () => {
  it('builds flat DTOs: declared keys copied, undeclared ones dropped, plain values kept as they are', () => {
    assert.equal(buildsWithoutTransformer(Flat), true);
    same(Flat, { title: 'Write', description: 'soon', completed: true, extra: 1 });
    same(Flat, { title: 'Write', meta: { nested: { deep: [1, { a: null }] } }, tags: ['a', 1, null, { b: 2 }] });
    same(Flat, { title: 1, description: null, completed: 'no', meta: 'not an object', tags: { 0: 'x' } });
    same(Flat, {});
    const meta = { kept: true };
    const built = instanceBuilder(Flat)({ title: 'x', meta }) as Flat;
    assert.equal(built.meta, meta, 'a plain value is the body value itself, as before');
  });

  it('keeps defaults from field initialisers, and sets what the body has over them', () => {
    assert.equal(buildsWithoutTransformer(Defaults), true);
    same(Defaults, {});
    same(Defaults, { completed: true, tags: null });
    same(Defaults, { priority: undefined, note: 'undeclared' });
  });

  it('builds nested DTOs and arrays of them as instances, recursively', () => {
    assert.equal(buildsWithoutTransformer(Order), true);
    same(Order, {
      reference: 'A-1',
      address: { city: 'Delft', zip: '2611', junk: { deep: 1 } },
      lines: [
        { sku: 'x', quantity: 2, shipTo: { city: 'Leiden', country: 'BE' } },
        { sku: 'y', quantity: 'many', more: 1 },
        {},
      ],
      extra: { any: ['thing'] },
    });
    const order = instanceBuilder(Order)({ reference: 'r', lines: [{ sku: 's', quantity: 1 }] }) as Order;
    assert.ok(order.lines[0] instanceof Line);
  });

  it('keeps null, primitives, arrays of mixed things and arrays of arrays where a nested DTO is declared', () => {
    for (const value of [null, 'text', 0, 7.5, true, false, [], {}, [null, 'a', 3, true, {}, { city: 'x', y: 1 }]]) {
      same(Order, { reference: 'r', address: value, lines: value });
    }
    same(Order, { reference: 'r', lines: [[{ sku: 'deep', quantity: 1, junk: { a: [1] } }], [[null]], [], 'x'] });
    same(Order, { reference: 'r', address: [{ city: 'in an array' }, 'x', [{ city: 'y' }]] });
    same(Order, { reference: 'r', lines: [{ sku: 's', shipTo: [{ city: 'a' }, null] }, { shipTo: 'x' }] });
  });

  it('nests a class in itself', () => {
    assert.equal(buildsWithoutTransformer(Tree), true);
    same(Tree, { name: 'root', children: [{ name: 'a', children: [{ name: 'b', extra: 1 }] }, { name: 'c', parent: { name: 'p' } }] });
  });

  it('leaves getters without setter and methods, goes through setters, as before', () => {
    assert.equal(buildsWithoutTransformer(Accessors), true);
    same(Accessors, { fixed: 'body', name: 'n', describe: 'body', plain: 'p' });
    same(Accessors, { home: { city: 'body', zip: 'z' }, callback: { city: 'c' } });
    same(Accessors, { home: [{ city: 'a' }], callback: null });
    const built = instanceBuilder(Accessors)({ fixed: 'body', name: 'n', describe: 'body' }) as Accessors;
    assert.equal(built.name, 'set:n');
    assert.equal(built.describe(), 'method');
  });

  it('builds subclasses with their inherited properties, defaults and accessors', () => {
    assert.equal(buildsWithoutTransformer(Derived), true);
    same(Derived, { id: 'x', version: 2, address: { city: 'c' }, label: 'body' });
    same(Derived, { id: 'x' });
    assert.ok(instanceBuilder(Derived)({ id: 'x', address: { city: 'c' } }) instanceof Base);
  });

  it('orders integer-like properties as Object.keys does', () => {
    assert.equal(buildsWithoutTransformer(Indexed), true);
    same(Indexed, { a: { city: 'a' }, 1: 'one', 2: { city: 'two' }, b: 'b' });
  });

  it('makes an array into the declared collection (a Set) or an array, as class-transformer does', () => {
    assert.equal(buildsWithoutTransformer(Collections), true);
    same(Collections, { set: [{ city: 'a' }, 'x', null], single: [{ city: 'b' }] });
    same(Collections, { set: { city: 'not a list' }, single: 5 });
  });

  it('keeps __proto__ and constructor keys of the body harmless', () => {
    const body = JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"x": 1}}, "title": "t",' +
      '"address": {"__proto__": {"p": 1}, "city": "c"}, "reference": "r"}');
    const order = instanceBuilder(Order)(body) as Order & { polluted?: number };
    assert.equal(Object.getPrototypeOf(order), Order.prototype);
    assert.equal(order.polluted, undefined);
    assert.equal(({} as { polluted?: number }).polluted, undefined);
    assertSame(order, transformerPath(Order)(JSON.parse(JSON.stringify(body))));
  });

  it('looks at no key of the body but the declared ones, at any depth', () => {
    const touched = new Set<string>();
    const watched = (target: object, path: string): object =>
      new Proxy(target, {
        ownKeys: () => assert.fail(`${path}: keys listed`),
        getOwnPropertyDescriptor: (t, key) => (touched.add(`${path}.${String(key)}`), Reflect.getOwnPropertyDescriptor(t, key)),
        get: (t, key) => (touched.add(`${path}.${String(key)}`), Reflect.get(t, key)),
        has: (t, key) => (touched.add(`${path}.${String(key)}`), Reflect.has(t, key)),
      });
    const undeclared = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`junk${i}`, i]));
    const line = watched({ ...undeclared, sku: 's', quantity: 1 }, 'line');
    const body = watched({ ...undeclared, reference: 'r', lines: [line], address: watched({ ...undeclared, city: 'c' }, 'address') }, 'order');
    instanceBuilder(Order)(body as Record<string, unknown>);
    assert.ok(touched.has('order.reference') && touched.has('line.sku') && touched.has('address.city'));
    assert.deepEqual([...touched].filter((key) => key.includes('junk')), []);
  });

  it('matches the class-transformer path on generated bodies (fast-check, fixed seed)', () => {
    const value = fc.jsonValue({ maxDepth: 3 });
    const address = fc.oneof(value, fc.record({ city: value, zip: value, junk: value }, { requiredKeys: [] }));
    const line = fc.oneof(value, fc.record({ sku: value, quantity: value, shipTo: address }, { requiredKeys: [] }));
    const order = fc.record(
      { reference: value, address, lines: fc.oneof(value, fc.array(line, { maxLength: 4 })), extra: value, other: value },
      { requiredKeys: [] },
    );
    fc.assert(fc.property(order, (body) => void same(Order, body)), { seed: 15, numRuns: 300 });
  });
});

describe('instanceBuilder: classes class-transformer has a say in keep it', () => {
  const cases: Array<[Class, unknown]> = [
    [Transformed, { name: '  padded  ', address: { city: 'c' } }],
    [Renamed, { display_name: 'shown', displayName: 'ignored', count: 2 }],
    [ExcludeAll, { name: 'n', secret: 's' }],
    [HoldsTransformed, { title: 't', inner: { name: ' x ' } }],
    [Discriminated, { address: { city: 'c' } }],
    [NotNested, { address: { city: 'c', junk: 1 } }],
    [ExposesUndeclared, { name: 'n' }],
  ];
  for (const [cls, body] of cases) {
    it(`${cls.name}: class-transformer's instance`, () => {
      assert.equal(buildsWithoutTransformer(cls), false);
      same(cls, body);
    });
  }

  it('applies @Transform and @Expose names as before', () => {
    assert.equal((instanceBuilder(Transformed)({ name: '  padded  ' }) as Transformed).name, 'padded');
    assert.equal((instanceBuilder(Renamed)({ display_name: 'shown' }) as Renamed).displayName, 'shown');
  });
});

describe('class-transformer decorator store, as instance-plan.ts reads it', () => {
  const { defaultMetadataStorage: storage } = require('class-transformer/cjs/storage') as {
    defaultMetadataStorage: TransformerStorage;
  };

  it('lists exposed properties (inherited too), and a @Type with its options and design type', () => {
    assert.deepEqual(storage.getExposedMetadatas(ExposesUndeclared).map((m) => m.propertyName), ['computed']);
    assert.deepEqual(storage.getExposedMetadatas(Order), []);
    const lines = storage.findTypeMetadata(Order, 'lines');
    assert.deepEqual(lines?.options, {});
    assert.equal(lines?.reflectedType, Array);
    assert.equal(storage.findTypeMetadata(Collections, 'set')?.reflectedType, Set);
    assert.deepEqual(storage.findTypeMetadata(Discriminated, 'address')?.options, { keepDiscriminatorProperty: true });
  });
});
