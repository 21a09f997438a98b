import { Get, Injectable, RateLimit, router, Use } from 'trellis';
import { Header } from 'trellis/param';
import { RequireToken } from '../middleware/require_token';
import { ProductService } from '../services/product_service';
import { TaskService } from '../services/task_service';
import { UserService } from '../services/user_service';

/**
 * Admin endpoints, behind router-scoped middleware: every request needs the Bearer token (ADMIN_TOKEN).
 * `@Use` on a single handler would guard that route alone. RequireToken declares the bearer scheme, so the docs
 * show both routes with it and their 401, and Swagger UI's Authorize button sends the token with "Try it out".
 * `@RateLimit` allows each client (by address) 60 requests a minute on these routes, then answers 429 with
 * `Retry-After`; counted in Redis when config.yaml's `redis.url` is set (one count for every worker and instance),
 * else in each process.
 */
@Injectable()
@Use(RequireToken)
@RateLimit({ limit: 60, window: '1m' })
export class AdminRouter extends router('/admin') {
  constructor(
    private readonly tasks: TaskService,
    private readonly products: ProductService,
    private readonly users: UserService,
  ) {
    super();
  }

  /** How many tasks, products and users the app holds; the services are the same instances the other routers use. */
  @Get('/stats')
  async stats() {
    const [tasks, products, users] = await Promise.all([this.tasks.count(), this.products.count(), this.users.count()]);
    return { tasks, products, users };
  }

  /** Echoes the caller's `User-Agent` header (`unknown` when it is absent). */
  @Get('/whoami')
  whoami(@Header('User-Agent', { default: 'unknown' }) userAgent: string) {
    return { user_agent: userAgent };
  }
}
