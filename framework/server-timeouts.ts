import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { announcesBody } from './pipeline/body';
import { requestId } from './request-id';
import type { RequestListener } from './core/listener';
import { SEND_TIMEOUT } from './symbols';
import { writeError } from './write';

export interface StallTimeouts {
  /** Milliseconds a request body may send nothing before the request is answered 408 and the socket closed. */
  bodyTimeout: number;
  /** Milliseconds a started response may move no byte (the client reads nothing) before the socket is destroyed. */
  sendTimeout: number;
}

type ServerSocket = Socket & { _httpMessage?: ServerResponse | null; [SEND_TIMEOUT]?: number };

/**
 * Makes a client that stops sending its body, or stops reading its response, lose its socket (nginx's
 * `client_body_timeout` and `send_timeout`): returns `listener` wrapped. Both count time *without progress*,
 * never the whole transfer: a slow upload or download that keeps moving bytes is never cut.
 *
 * - Sending: Node's socket idle timer (`socket.setTimeout`), armed by the writer's `watchSending` only when a response
 *   leaves bytes waiting for the client (the kernel's buffer is full, or an earlier response on the socket is
 *   still going out), and for every streamed body. A response the kernel takes at once (nearly all of them) arms
 *   nothing: with `server.timeout` Node set a timer as each request arrived and refreshed it at each write, three
 *   timer operations per request where Node's keep-alive timer alone is one. Once armed, Node refreshes the timer
 *   whenever a write is handed to the socket or completes, and when it fires during a large write it checks
 *   whether the kernel took any of the bytes queued since (`writeQueueSize`) and re-arms if so: it fires only
 *   when nothing moved for the whole time. When the response is sent, Node's keep-alive timer replaces it.
 *   Firing before the response started (the handler is still working) is ignored: a slow handler is the app's
 *   business. So is firing while no byte waits to be sent: a stream or event source with nothing new to say is
 *   not a stalled client. With no response under way, the timer that fired is the keep-alive one and the socket
 *   is closed as Node closes it; before the socket's first request, it is left to `headersTimeout`.
 * - Receiving: `socket.bytesRead` sampled a few times per `bodyTimeout` while the body is incomplete. When the
 *   app is the one not reading (its buffer of the body is full), the client is not stalled and is not timed out.
 *   A body is watched only if it is still incomplete once the bytes that carried its headers are parsed (in
 *   the loop's next check phase): a small body sent with its headers costs no timer and no listener.
 *
 * A timeout of 0 turns that check off.
 */
export function withStallTimeouts(server: Server, listener: RequestListener, timeouts: StallTimeouts): RequestListener {
  const { bodyTimeout, sendTimeout } = timeouts;
  // The keep-alive timer's firing is ours to answer too (a server with a 'timeout' listener is left to close it).
  server.on('timeout', onSocketIdle);
  // Requests whose body had not arrived when the listener ran, looked at again once the data that brought their
  // headers is parsed: a body in the same packet (nearly every JSON POST) is complete by then and is never watched.
  // Not a microtask: Node runs those between a request's headers and its body of the same packet; an immediate
  // runs after the whole packet is parsed.
  const pending: Array<IncomingMessage | ServerResponse> = [];
  const watchPending = () => {
    for (let i = 0; i < pending.length; i += 2) {
      const req = pending[i] as IncomingMessage;
      const res = pending[i + 1] as ServerResponse;
      if (!req.complete && !res.headersSent && !res.closed) watchBody(req, res, bodyTimeout);
    }
    pending.length = 0;
  };
  return (req, res) => {
    (req.socket as ServerSocket)[SEND_TIMEOUT] = sendTimeout;
    if (bodyTimeout > 0 && !req.complete && announcesBody(req.headers)) {
      if (pending.length === 0) setImmediate(watchPending);
      pending.push(req, res);
    }
    listener(req, res);
  };
}

function onSocketIdle(socket: ServerSocket): void {
  const res = socket._httpMessage;
  if (res) {
    // With no byte waiting to go out, the app is the quiet one (a stream between events), not the client.
    if (res.headersSent && !res.writableFinished && res.writableLength > 0) res.destroy();
  } else if (socket[SEND_TIMEOUT] !== undefined) socket.destroy();
}

function watchBody(req: IncomingMessage, res: ServerResponse, bodyTimeout: number): void {
  const socket = req.socket;
  let lastBytes = socket.bytesRead;
  let lastMove = Date.now();
  const check = () => {
    if (req.complete || res.headersSent || res.closed) return stop();
    const bytes = socket.bytesRead;
    const appIsBehind = req.readableLength >= req.readableHighWaterMark;
    if (bytes !== lastBytes || appIsBehind) {
      lastBytes = bytes;
      lastMove = Date.now();
    } else if (Date.now() - lastMove >= bodyTimeout) {
      stop();
      answerBodyTimeout(req, res);
    }
  };
  // Four looks per timeout: a stalled body is answered between 1 and 1.25 bodyTimeout after its last byte.
  const timer = setInterval(check, Math.max(10, Math.min(1_000, bodyTimeout / 4))).unref();
  const stop = () => {
    clearInterval(timer);
    res.off('close', stop);
  };
  res.once('close', stop);
}

function answerBodyTimeout(req: IncomingMessage, res: ServerResponse): void {
  const id = (req as IncomingMessage & { id?: string }).id ?? requestId(undefined);
  res.shouldKeepAlive = false;
  // Destroyed once the answer is flushed: the rest of the body will never be read.
  writeError(res, 408, id, true, () => req.socket.destroy());
}
