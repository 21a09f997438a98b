import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A gateway that greets each client with the process that holds it, and echoes what it is sent.
const FEED = `import { gateway, OnMessage, type WebSocketClient } from 'trellis/websocket';

export class Feed extends gateway('/ws/feed') {
  onConnect(client: WebSocketClient) {
    client.send({ event: 'hello', pid: process.pid });
  }

  @OnMessage('echo')
  echo(_client: WebSocketClient, data: unknown) {
    return { event: 'echo', data };
  }
}
`;

const CONFIG = `app:
  title: WebSocket Shutdown Test API
  version: 0.1.0
server:
  host: 127.0.0.1
  port: 0
`;

/**
 * A project with one gateway (`/ws/feed`: a `hello` naming the process on connect, `echo` answered) in a
 * temporary folder, run by this checkout's CLI. `remove()` deletes the folder.
 */
export function shutdownProject(): { root: string; remove(): void } {
  const work = mkdtempSync(join(tmpdir(), 'trellis-ws-shutdown-'));
  const root = join(work, 'app');
  mkdirSync(join(root, 'routers'), { recursive: true });
  writeFileSync(join(root, 'config.yaml'), CONFIG);
  writeFileSync(join(root, 'routers', 'feed.ts'), FEED);
  return { root, remove: () => rmSync(work, { recursive: true, force: true }) };
}
