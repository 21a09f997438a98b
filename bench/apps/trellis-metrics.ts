// bench/apps/trellis.ts with `AppOptions.metrics` on or off (METRICS=on|off; bench/metrics.js sets it): the same
// routers, so the difference between the two is what /metrics costs a request. Run through register.js.
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

const metrics = process.env.METRICS;
if (metrics !== 'on' && metrics !== 'off') throw new Error('METRICS is not on or off (bench/metrics.js sets it)');
const app = new BaseRouter({ title: 'bench', metrics: metrics === 'on' }).includeRouter(new TaskRouter()).includeRouter(new ProductRouter());
app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
