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
 * The tasks, kept in memory for as long as the server runs. Starts with tasks 1 and 2; ids are never
 * reused, so after deleting task 3 the next task is still 4. Each change is told to `changes`' listeners.
 */
export class TaskService {
  readonly changes = taskEvents();
  private readonly tasks = new Map<number, Task>();
  private nextId = 3;

  constructor() {
    this.tasks.set(1, { id: 1, title: 'Read the trellis README', completed: false });
    this.tasks.set(2, { id: 2, title: 'Write a router of my own', completed: false });
  }

  all(): Task[] {
    return [...this.tasks.values()];
  }

  get(id: number): Task | undefined {
    return this.tasks.get(id);
  }

  count(): number {
    return this.tasks.size;
  }

  add(input: TaskInput): Task {
    const task = { id: this.nextId++, ...fields(input) };
    this.tasks.set(task.id, task);
    this.changes.emit({ event: 'created', task });
    return task;
  }

  /** Replaces title, description and completed; `undefined` when there is no such task. */
  replace(id: number, input: TaskInput): Task | undefined {
    if (!this.tasks.has(id)) return undefined;
    const task = { id, ...fields(input) };
    this.tasks.set(id, task);
    this.changes.emit({ event: 'updated', task });
    return task;
  }

  /** Whether a task was deleted. */
  delete(id: number): boolean {
    const task = this.tasks.get(id);
    if (!task) return false;
    this.tasks.delete(id);
    this.changes.emit({ event: 'deleted', task });
    return true;
  }
}

function fields(input: TaskInput): Omit<Task, 'id'> {
  return { title: input.title, description: input.description ?? '', completed: input.completed ?? false };
}
