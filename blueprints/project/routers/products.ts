import { ArrayMaxSize, IsArray, IsNumber, IsOptional, IsPositive, IsString, Length, MaxLength } from 'class-validator';
import { Get, HTTPException, Injectable, Post, router } from 'trellis';
import { Body, Int, Path, Query } from 'trellis/param';
import { ProductService, type Product } from '../services/product_service';

/** The body of `POST /products` (and each item of `POST /products/batch`). */
export class ProductIn {
  @IsString()
  @Length(1, 100)
  name!: string;

  @IsNumber()
  @IsPositive()
  price!: number;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  description: string | null = null;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Length(1, 30, { each: true })
  tags: string[] = [];
}

/** A catalogue: query parameters with types, defaults and limits (422 past them), validated bodies, a batch endpoint. */
@Injectable()
export class ProductRouter extends router('/products') {
  constructor(private readonly products: ProductService) {
    super();
  }

  /** Lists products, a page at a time; `category` keeps the products tagged with it. */
  @Get()
  async list(
    @Query('page', { type: Int, default: 1, minimum: 1 }) page: number,
    @Query('limit', { type: Int, default: 10, minimum: 1, maximum: 100 }) limit: number,
    @Query('category', { default: null }) category: string | null,
  ) {
    const items = await this.products.search({ category, page, limit });
    return { query: { page, limit, category }, items };
  }

  /** Searches product names for `q`, with optional category and price range, sorted by `name` or `price`. */
  @Get('/search')
  async search(
    @Query('q') q: string,
    @Query('category', { default: null }) category: string | null,
    @Query('min_price', { type: Number, default: null }) minPrice: number | null,
    @Query('max_price', { type: Number, default: null }) maxPrice: number | null,
    @Query('sort', { default: 'name', enum: ['name', 'price'] }) sort: 'name' | 'price',
    @Query('page', { type: Int, default: 1, minimum: 1 }) page: number,
    @Query('limit', { type: Int, default: 20, minimum: 1, maximum: 100 }) limit: number,
  ) {
    const items = await this.products.search({ q, category, minPrice, maxPrice, sort, page, limit });
    const query = { q, category, min_price: minPrice, max_price: maxPrice, sort, page, limit };
    return { query, items };
  }

  /** Adds a product and answers 201 with it. */
  @Post('/', { status: 201 })
  async create(@Body() body: ProductIn): Promise<Product> {
    return this.products.add(body);
  }

  /** Adds several products at once; every item is validated before any is added. */
  @Post('/batch', { status: 201 })
  async createMany(@Body({ type: ProductIn }) items: ProductIn[]): Promise<Product[]> {
    return this.products.addMany(items);
  }

  /** Returns one product; 404 when no product has this id. */
  @Get('/{product_id}')
  async one(@Path('product_id', { type: Int }) productId: number): Promise<Product> {
    const product = await this.products.get(productId);
    if (!product) throw new HTTPException(404, `Product ${productId} not found`);
    return product;
  }
}
