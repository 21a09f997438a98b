import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A gateway whose clients join one room and learn, in a first `hello` message, which process holds them.
const FEED = `import { gateway, type WebSocketClient } from 'trellis/websocket';

export const ROOM = process.env.ROOMS_TEST_ROOM ?? 'all';

export class Feed extends gateway('/ws/feed') {
  onConnect(client: WebSocketClient) {
    client.join(ROOM);
    client.send({ event: 'hello', pid: process.pid });
  }
}
`;

// Broadcasts to the room through the process that answers; and says which one that is.
const BROADCAST = `import { Get, Injectable, Post, router } from 'trellis';
import { Path } from 'trellis/param';
import { Rooms } from 'trellis/websocket';
import { ROOM } from './feed';

@Injectable()
export class BroadcastRouter extends router('/') {
  constructor(private readonly rooms: Rooms) {
    super();
  }

  @Get('/whoami')
  whoami() {
    return { pid: process.pid };
  }

  @Post('/broadcast/{id}')
  broadcast(@Path('id') id: string) {
    this.rooms.broadcast(ROOM, { event: 'message', id, from: process.pid });
    return { pid: process.pid };
  }
}
`;

const CONFIG = `app:
  title: Rooms Test API
  version: 0.1.0
server:
  host: 127.0.0.1
  port: 0
redis:
  url: \${REDIS_URL}
`;

/**
 * A project of two routers in a temporary folder, run by this checkout's CLI: `GET /ws/feed` (a gateway whose
 * clients join the room named by `ROOMS_TEST_ROOM`) and `POST /broadcast/{id}` (a broadcast to that room from the
 * process that answers, named with `GET /whoami`), on the Redis of `REDIS_URL`. `remove()` deletes the folder.
 */
export function roomsProject(): { root: string; remove(): void } {
  const work = mkdtempSync(join(tmpdir(), 'trellis-rooms-'));
  const root = join(work, 'app');
  mkdirSync(join(root, 'routers'), { recursive: true });
  writeFileSync(join(root, 'config.yaml'), CONFIG);
  writeFileSync(join(root, 'routers', 'feed.ts'), FEED);
  writeFileSync(join(root, 'routers', 'broadcast.ts'), BROADCAST);
  return { root, remove: () => rmSync(work, { recursive: true, force: true }) };
}
