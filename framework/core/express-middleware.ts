// Leaf: the Express middleware shape `MiddlewareLike` accepts and express/adapter.ts runs. Imports nothing.

/**
 * Express/Connect middleware, as written for `app.use` (cors, helmet, morgan, express-session, ...). Its
 * parameters are typed `any` so that middleware typed with Express's own types fits without `@types/express`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ExpressMiddleware = (req: any, res: any, next: (error?: any) => void) => unknown;
