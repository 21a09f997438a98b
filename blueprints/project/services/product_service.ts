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

  /** Adds every product of `inputs`, in order. */
  addMany(inputs: ProductInput[]): Product[] {
    return inputs.map((input) => this.add(input));
  }

  /** The products matching `filter` (all of them without one), ordered by name or price (by id without), one page of them. */
  search(filter: ProductFilter = {}): Product[] {
    const q = filter.q?.toLowerCase();
    const found = [...this.products.values()].filter(
      (p) =>
        (q === undefined || p.name.toLowerCase().includes(q)) &&
        (filter.category == null || p.tags.includes(filter.category)) &&
        (filter.minPrice == null || p.price >= filter.minPrice) &&
        (filter.maxPrice == null || p.price <= filter.maxPrice),
    );
    if (filter.sort === 'price') found.sort((a, b) => a.price - b.price || a.id - b.id);
    if (filter.sort === 'name') found.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
    if (filter.limit === undefined) return found;
    const start = ((filter.page ?? 1) - 1) * filter.limit;
    return found.slice(start, start + filter.limit);
  }
}
