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

/** How `search` filters and orders products. */
export interface ProductFilter {
  q?: string;
  category?: string | null;
  minPrice?: number | null;
  maxPrice?: number | null;
  sort?: 'name' | 'price';
}

/** The product catalogue, in memory: three products to start with. A product's category is one of its tags. */
export class ProductService {
  private readonly products = new Map<number, Product>();
  private nextId = 1;

  constructor() {
    this.add({ name: 'Keyboard', price: 49.9, tags: ['hardware'] });
    this.add({ name: 'Coffee mug', price: 9.5, description: 'Holds 350 ml.', tags: ['kitchen'] });
    this.add({ name: 'Desk lamp', price: 29, tags: ['hardware', 'home'] });
  }

  get(id: number): Product | undefined {
    return this.products.get(id);
  }

  count(): number {
    return this.products.size;
  }

  add(input: ProductInput): Product {
    const product: Product = {
      id: this.nextId++,
      name: input.name,
      price: input.price,
      description: input.description ?? null,
      tags: input.tags ?? [],
    };
    this.products.set(product.id, product);
    return product;
  }

  /** The products matching `filter` (all of them without one), ordered by name or price. */
  search(filter: ProductFilter = {}): Product[] {
    const q = filter.q?.toLowerCase();
    const found = [...this.products.values()].filter(
      (p) =>
        (q === undefined || p.name.toLowerCase().includes(q)) &&
        (filter.category == null || p.tags.includes(filter.category)) &&
        (filter.minPrice == null || p.price >= filter.minPrice) &&
        (filter.maxPrice == null || p.price <= filter.maxPrice),
    );
    if (filter.sort === 'price') return found.sort((a, b) => a.price - b.price || a.id - b.id);
    if (filter.sort === 'name') return found.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
    return found;
  }
}

/** Page `page` (from 1) of `limit` items. */
export function paginate<T>(items: T[], page: number, limit: number): T[] {
  return items.slice((page - 1) * limit, page * limit);
}
