// The request-path probe's trellis app: the sample's TaskRouter (`trellis create`), cut to its two measured routes.
// GET /tasks/{task_id} returns a `Task` (shaped by its type, read from this file), POST /tasks validates a
// class-validator DTO and answers 201. `trellis` resolves through the register.js of the checkout measured.
import { IsBoolean, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { BaseRouter, Get, HTTPException, Injectable, Post, router } from 'trellis';
import { Body, Int, Path } from 'trellis/param';

export interface Task {
  id: number;
  title: string;
  description?: string;
  completed: boolean;
}

export class TaskIn {
  @IsString()
  @Length(1, 200)
  title!: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description: string = '';

  @IsOptional()
  @IsBoolean()
  completed: boolean = false;
}

export class TaskService {
  private readonly tasks = new Map<number, Task>([[1, { id: 1, title: 'Read the trellis README', completed: false }]]);
  private nextId = 2;

  get(id: number): Task | undefined {
    return this.tasks.get(id);
  }

  add(input: TaskIn): Task {
    const task: Task = { id: this.nextId++, title: input.title, description: input.description, completed: input.completed };
    this.tasks.set(task.id, task);
    return task;
  }
}

@Injectable()
export class TaskRouter extends router('/tasks') {
  constructor(private readonly tasks: TaskService) {
    super();
  }

  @Get('/{task_id}')
  one(@Path('task_id', { type: Int }) taskId: number): Task {
    const task = this.tasks.get(taskId);
    if (!task) throw new HTTPException(404, `Task ${taskId} not found`);
    return task;
  }

  @Post('/', { status: 201 })
  create(@Body() body: TaskIn): Task {
    return this.tasks.add(body);
  }
}

const app = new BaseRouter({ title: 'request-path' }).provide(TaskService).includeRouter(TaskRouter);

/** Listens on 127.0.0.1 at a free port, as `trellis run` serves an app; resolves to the port. */
export async function serve(): Promise<number> {
  const server = await app.listen({ host: '127.0.0.1', port: 0 });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
