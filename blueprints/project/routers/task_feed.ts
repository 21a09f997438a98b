import { Injectable } from 'trellis';
import { Emits, gateway, Rooms, type WebSocketClient } from 'trellis/websocket';
import { TaskService } from '../services/task_service';

/**
 * A WebSocket at `/ws/tasks` that tells every connected client each change to the tasks, as a message
 * `{"event": "created" | "updated" | "deleted", "data": {...the task}}`. Clients join the room `tasks` when they connect;
 * the gateway listens to `TaskService`'s changes (the service knows nothing of WebSockets) and broadcasts each to
 * the room. With `redis.url` set (config.yaml, `REDIS_URL`), a broadcast reaches the clients of every worker and
 * instance; without it, those of this process.
 */
@Injectable()
@Emits('created', undefined, { description: 'A task was created: `data` is the task, as `GET /tasks/{task_id}` answers it.' })
@Emits('updated', undefined, { description: 'A task was replaced: `data` is the task as it is now.' })
@Emits('deleted', undefined, { description: 'A task was deleted: `data` is the task as it was.' })
export class TaskFeed extends gateway('/ws/tasks') {
  constructor(tasks: TaskService, rooms: Rooms) {
    super();
    tasks.changes.on(({ event, task }) => rooms.broadcast('tasks', { event, data: task }));
  }

  onConnect(client: WebSocketClient): void {
    client.join('tasks');
  }
}
