// What one request-scoped dependency costs a request (bench/auth.js): GET /tasks/{task_id} reads the task through
// a singleton service injected into the router (DEPENDENCY unset), or through a request-scoped class made for each
// request from that service and given to the handler by @Depends() (DEPENDENCY=1). Same body either way.
import { BaseRouter, Get, HTTPException, Injectable, router } from '../../../framework';
import { Depends, Int, Path } from '../../../framework/param';
import { tasks } from '../shared/store';

@Injectable()
class TaskService {
  get(id: number) {
    const task = tasks.get(id);
    if (!task) throw new HTTPException(404, 'Task not found');
    return task;
  }
}

@Injectable({ scope: 'request' })
class TaskReader {
  constructor(private readonly service: TaskService) {}

  get(id: number) {
    return this.service.get(id);
  }
}

@Injectable()
class SingletonRouter extends router('/tasks') {
  constructor(private readonly service: TaskService) {
    super();
  }

  @Get('/{task_id}')
  one(@Path('task_id', { type: Int }) taskId: number) {
    return this.service.get(taskId);
  }
}

class RequestScopedRouter extends router('/tasks') {
  @Get('/{task_id}')
  one(@Path('task_id', { type: Int }) taskId: number, @Depends() reader: TaskReader) {
    return reader.get(taskId);
  }
}

const app = new BaseRouter({ title: 'bench' }).provide(TaskService);
app.includeRouter(process.env.DEPENDENCY === '1' ? RequestScopedRouter : SingletonRouter);
app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
