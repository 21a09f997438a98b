import type { Task } from './task_service';

/** One change to the tasks: `task` as it is after it (as it was, for `deleted`). */
export interface TaskChange {
  event: 'created' | 'updated' | 'deleted';
  task: Task;
}

/** Called after each change; what it throws is the caller's (keep it quick: it runs before the write answers). */
export type TaskListener = (change: TaskChange) => void;

/**
 * The listeners to `TaskService`'s changes. The service tells them what changed and nothing more: it knows no
 * transport. `routers/task_feed.ts` listens and broadcasts each change to the WebSocket clients.
 */
export interface TaskEvents {
  /** Calls `listener` after every change from now on; returns the function that stops it. */
  on(listener: TaskListener): () => void;
  emit(change: TaskChange): void;
}

/** An empty list of listeners. A function, not a class: every class in services/ is a service of its own. */
export function taskEvents(): TaskEvents {
  const listeners = new Set<TaskListener>();
  return {
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(change) {
      for (const listener of listeners) listener(change);
    },
  };
}
