// Leaf: the Node listener type the app hands to the server. Imports only node:http.
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A Node request listener, usable with `http.createServer`, supertest, or `expressApp.use(path, ...)`.
 * It sets `req.id` to the request id (the `X-Request-Id` of the response) for loggers wrapping it. Given
 * Express's `next` (mounted in an Express app), it calls it for a request no route of the app answers.
 */
export type RequestListener = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;
