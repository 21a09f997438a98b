// routing-controllers 0.11.3 on Express 5: class-validator DTO (400 on failure), query/param conversion
// from the design types.
import 'reflect-metadata';
import { Body, createExpressServer, Get, HttpCode, JsonController, NotFoundError, Param, Post, QueryParam } from 'routing-controllers';
import { searchProducts, tasks } from './shared/store';
import { TaskIn } from './shared/task-in';

@JsonController('/tasks')
class TaskController {
  @Get('/:id')
  one(@Param('id') id: number) {
    const task = tasks.get(id);
    if (!task) throw new NotFoundError('Task not found');
    return task;
  }

  @Post('/')
  @HttpCode(201)
  create(@Body({ required: true }) body: TaskIn) {
    return tasks.create(body);
  }
}

@JsonController('/products')
class ProductController {
  @Get('/search')
  search(
    @QueryParam('q', { required: true }) q: string,
    @QueryParam('category') category: string,
    @QueryParam('min_price') min_price: number,
    @QueryParam('max_price') max_price: number,
    @QueryParam('sort') sort: string,
    @QueryParam('page') page: number,
    @QueryParam('limit') limit: number,
  ) {
    return searchProducts({
      q,
      category: category ?? null,
      min_price: min_price ?? null,
      max_price: max_price ?? null,
      sort: sort ?? 'name',
      page: page ?? 1,
      limit: limit ?? 20,
    });
  }
}

const app = createExpressServer({
  controllers: [TaskController, ProductController],
  validation: { whitelist: true },
  classTransformer: true,
  defaultErrorHandler: true,
});
app.listen(Number(process.env.PORT), '127.0.0.1');
