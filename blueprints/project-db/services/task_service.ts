import { Kysely, sql, type Selectable } from 'kysely';
import { Injectable } from 'trellis';
import type { TaskTable, Tables } from '../db/schema';
import { taskEvents } from './task_events';

/** A task as the API returns it. The two starting tasks have no `description`. */
export interface Task {
  id: number;
  title: string;
  description?: string;
  completed: boolean;
}

/** What creating or replacing a task takes. */
export interface TaskInput {
  title: string;
  description?: string | null;
  completed?: boolean | null;
}

/**
 * The tasks, in the `tasks` table (migrations/0001_create_tasks.ts makes it with tasks 1 and 2). The database
 * gives the ids and never reuses one, so after deleting task 3 the next task is still 4. Each change is told to
 * `changes`' listeners once it is stored.
 */
@Injectable()
export class TaskService {
  readonly changes = taskEvents();

  constructor(private readonly db: Kysely<Tables>) {}

  async all(): Promise<Task[]> {
    const rows = await this.db.selectFrom('tasks').selectAll().orderBy('id').execute();
    return rows.map(toTask);
  }

  async get(id: number): Promise<Task | undefined> {
    const row = await this.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toTask(row);
  }

  async count(): Promise<number> {
    const { count } = await this.db.selectFrom('tasks').select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow();
    return count;
  }

  async add(input: TaskInput): Promise<Task> {
    const row = await this.db.insertInto('tasks').values(fields(input)).returningAll().executeTakeFirstOrThrow();
    const task = toTask(row);
    this.changes.emit({ event: 'created', task });
    return task;
  }

  /** Replaces title, description and completed; `undefined` when there is no such task. */
  async replace(id: number, input: TaskInput): Promise<Task | undefined> {
    const row = await this.db.updateTable('tasks').set(fields(input)).where('id', '=', id).returningAll().executeTakeFirst();
    if (!row) return undefined;
    const task = toTask(row);
    this.changes.emit({ event: 'updated', task });
    return task;
  }

  /** Whether a task was deleted. */
  async delete(id: number): Promise<boolean> {
    const row = await this.db.deleteFrom('tasks').where('id', '=', id).returningAll().executeTakeFirst();
    if (!row) return false;
    this.changes.emit({ event: 'deleted', task: toTask(row) });
    return true;
  }
}

function fields(input: TaskInput) {
  return { title: input.title, description: input.description ?? '', completed: input.completed ?? false };
}

// A task the database holds without a description (the starting ones) is answered without the field.
function toTask({ id, title, description, completed }: Selectable<TaskTable>): Task {
  return description === null ? { id, title, completed } : { id, title, description, completed };
}
