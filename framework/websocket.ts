/**
 * trellis/websocket: WebSocket gateways. A gateway class (`extends gateway('/ws/tasks')`) answers JSON messages
 * `{"event": ..., "data": ...}` with its `@OnMessage(event)` methods (data validated by its DTO class), its guards
 * (`@Use`) check the upgrade request, and `Rooms` broadcasts to the clients of a room in every worker and instance.
 * Served by the `websockets` plug-in of trellis/plugins (`trellis run` registers it with the gateways of
 * routers/). See docs/guide/websockets.md and docs/reference/websockets.md.
 *
 * @example
 * ```ts
 * import { Injectable } from 'trellis';
 * import { gateway, OnMessage, type WebSocketClient } from 'trellis/websocket';
 * import { IsString } from 'class-validator';
 *
 * class Subscribe { @IsString() room!: string }
 *
 * @Injectable()
 * export class TaskFeed extends gateway('/ws/tasks') {
 *   onConnect(client: WebSocketClient) { client.join('tasks'); }
 *   @OnMessage('subscribe') subscribe(client: WebSocketClient, data: Subscribe) {
 *     client.join(data.room);
 *     return { event: 'subscribed', data: { room: data.room } };
 *   }
 * }
 * ```
 */
export { gateway, Gateway, isGatewayClass, type GatewayOptions } from './websocket/gateway';
export { OnMessage } from './websocket/on-message';
export { Emits, type EmitsOptions } from './websocket/asyncapi/emits';
export { WebSocketClient } from './websocket/client';
export { Rooms } from './websocket/rooms';
export { memoryBus, type RoomBus } from './websocket/room-bus';
export { redisBus, type RedisBusOptions } from './websocket/redis-bus';
export { WebSocketSettings } from './websocket/settings';
export type { WebSocketOptions } from './websocket/options';
