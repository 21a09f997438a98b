import { IsBoolean, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { Delete, Get, HTTPException, Injectable, Post, Put, router, Use } from 'trellis';
import { Scopes } from 'trellis/auth';
import { Body, Int, Path } from 'trellis/param';
import { RequireWriter } from '../middleware/require_writer';
import { TaskService, type Task } from '../services/task_service';

/**
 * The body of `POST /tasks` and `PUT /tasks/{task_id}`. Every field needs a validation decorator, and every
 * string a maximum length: nothing a client sends should be stored unbounded.
 */
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

/**
 * A to-do list: create, read, replace and delete tasks. The tasks live in `TaskService`; the handlers await it, so
 * the same router serves a service in memory and one on a database (`trellis create --db`).
 * Anyone may read; the writes need a bearer token with the scope `tasks:write`: `@Use(RequireWriter)` verifies
 * the token (401 without a valid one) and checks the scopes `@Scopes` names (403 without them); the OpenAPI
 * document lists that scope and the 403 on each write.
 */
@Injectable()
export class TaskRouter extends router('/tasks') {
  constructor(private readonly tasks: TaskService) {
    super();
  }

  /** Lists every task, oldest first. */
  @Get()
  async list(): Promise<Task[]> {
    return this.tasks.all();
  }

  /** Returns one task; 404 when no task has this id. */
  @Get('/{task_id}')
  async one(@Path('task_id', { type: Int }) taskId: number): Promise<Task> {
    const task = await this.tasks.get(taskId);
    if (!task) throw notFound(taskId);
    return task;
  }

  /** Creates a task and answers 201 with it, including its new id. */
  @Post('/', { status: 201 })
  @Use(RequireWriter)
  @Scopes('tasks:write')
  async create(@Body() body: TaskIn): Promise<Task> {
    return this.tasks.add(body);
  }

  /** Replaces a task's title, description and completed flag; 404 when no task has this id. */
  @Put('/{task_id}')
  @Use(RequireWriter)
  @Scopes('tasks:write')
  async replace(@Path('task_id', { type: Int }) taskId: number, @Body() body: TaskIn): Promise<Task> {
    const task = await this.tasks.replace(taskId, body);
    if (!task) throw notFound(taskId);
    return task;
  }

  /** Deletes a task; its id is not given out again. 404 when no task has this id. */
  @Delete('/{task_id}')
  @Use(RequireWriter)
  @Scopes('tasks:write')
  async remove(@Path('task_id', { type: Int }) taskId: number): Promise<{ message: string }> {
    if (!(await this.tasks.delete(taskId))) throw notFound(taskId);
    return { message: `Task ${taskId} deleted` };
  }
}

function notFound(taskId: number): HTTPException {
  return new HTTPException(404, `Task ${taskId} not found`);
}
