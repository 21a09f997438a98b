// trellis used programmatically: a BaseRouter with two routers, run through register.js (the swc hook
// `trellis run` also uses), so it compiles the same way the user's project does.
import { BaseRouter, Get, HTTPException, Post, router } from '../../framework';
import { Body, Int, Path, Query } from '../../framework/param';
import { searchProducts, tasks } from './shared/store';
import { TaskIn } from './shared/task-in';

class TaskRouter extends router('/tasks') {
  @Get('/{task_id}')
  one(@Path('task_id', { type: Int }) taskId: number) {
    const task = tasks.get(taskId);
    if (!task) throw new HTTPException(404, 'Task not found');
    return task;
  }

  @Post('/', { status: 201 })
  create(@Body() body: TaskIn) {
    return tasks.create(body);
  }
}

class ProductRouter extends router('/products') {
  @Get('/search')
  search(
    @Query('q') q: string,
    @Query('category', { default: null }) category: string | null,
    @Query('min_price', { type: Number, default: null }) min_price: number | null,
    @Query('max_price', { type: Number, default: null }) max_price: number | null,
    @Query('sort', { default: 'name' }) sort: string,
    @Query('page', { type: Int, default: 1 }) page: number,
    @Query('limit', { type: Int, default: 20 }) limit: number,
  ) {
    return searchProducts({ q, category, min_price, max_price, sort, page, limit });
  }
}

const app = new BaseRouter({ title: 'bench' }).includeRouter(new TaskRouter()).includeRouter(new ProductRouter());
app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
