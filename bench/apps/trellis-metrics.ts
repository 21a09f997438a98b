// bench/apps/trellis.ts with `AppOptions.metrics` on or off (METRICS=on|off; bench/metrics.js sets it), or both apps
// in one process (METRICS=both): the same routers, so the difference is what /metrics costs a request. Run through
// register.js.
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
const serve = (on: boolean, port: number) =>
  new BaseRouter({ title: 'bench', metrics: on }).includeRouter(new TaskRouter()).includeRouter(new ProductRouter()).listen({ host: '127.0.0.1', port });
if (metrics === 'on' || metrics === 'off') serve(metrics === 'on', Number(process.env.PORT));
else if (metrics === 'both') {
  // Both apps in one process (bench/metrics.js --mode one-process): off on PORT, on on PORT_ON.
  serve(false, Number(process.env.PORT));
  serve(true, Number(process.env.PORT_ON));
} else throw new Error('METRICS is not on, off or both (bench/metrics.js sets it)');
