import { Kysely, sql, type Selectable } from 'kysely';
import { Injectable } from 'trellis';
import type { ProductTable, Tables } from '../db/schema';

/** A product as the API returns it. */
export interface Product {
  id: number;
  name: string;
  price: number;
  description: string | null;
  tags: string[];
}

export interface ProductInput {
  name: string;
  price: number;
  description?: string | null;
  tags?: string[] | null;
}

/** How `search` filters, orders and pages products. */
export interface ProductFilter {
  q?: string;
  category?: string | null;
  minPrice?: number | null;
  maxPrice?: number | null;
  sort?: 'name' | 'price';
  /** From 1; with `limit`, which slice of the matches to return (all of them without). */
  page?: number;
  limit?: number;
}

/**
 * The product catalogue, in the `products` table (migrations/0002_create_products.ts starts it with three
 * products). A product's category is one of its tags.
 */
@Injectable()
export class ProductService {
  constructor(private readonly db: Kysely<Tables>) {}

  async get(id: number): Promise<Product | undefined> {
    const row = await this.db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toProduct(row);
  }

  async count(): Promise<number> {
    const { count } = await this.db.selectFrom('products').select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow();
    return count;
  }

  async add(input: ProductInput): Promise<Product> {
    const [product] = await this.addMany([input]);
    return product;
  }

  /** Adds every product of `inputs`, in order, in one statement: all of them or none. */
  async addMany(inputs: ProductInput[]): Promise<Product[]> {
    if (inputs.length === 0) return [];
    const rows = await this.db
      .insertInto('products')
      .values(inputs.map((input) => ({ name: input.name, price: input.price, description: input.description ?? null, tags: input.tags ?? [] })))
      .returningAll()
      .execute();
    return rows.sort((a, b) => a.id - b.id).map(toProduct);
  }

  /** The products matching `filter` (all of them without one), ordered by name or price (by id without), one page of them. */
  async search(filter: ProductFilter = {}): Promise<Product[]> {
    let query = this.db.selectFrom('products').selectAll();
    if (filter.q !== undefined) query = query.where(sql<boolean>`strpos(lower(name), lower(${filter.q})) > 0`);
    if (filter.category != null) query = query.where(sql<boolean>`${filter.category} = any(tags)`);
    if (filter.minPrice != null) query = query.where('price', '>=', filter.minPrice);
    if (filter.maxPrice != null) query = query.where('price', '<=', filter.maxPrice);
    // lower(name) first: the in-memory sample's localeCompare puts "apple" before "Banana"; a C collation would not.
    if (filter.sort === 'name') query = query.orderBy(sql`lower(name)`).orderBy('name');
    if (filter.sort === 'price') query = query.orderBy('price');
    query = query.orderBy('id');
    if (filter.limit !== undefined) query = query.limit(filter.limit).offset(((filter.page ?? 1) - 1) * filter.limit);
    return (await query.execute()).map(toProduct);
  }
}

function toProduct(row: Selectable<ProductTable>): Product {
  return { id: row.id, name: row.name, price: row.price, description: row.description, tags: row.tags };
}
