// Leaf: the Express middleware shape `MiddlewareLike` accepts. Imports nothing.
// express/adapter.ts still declares the same type (it is being edited elsewhere); it should import this one.

/**
 * Express/Connect middleware, as written for `app.use` (cors, helmet, morgan, express-session, ...). Its
 * parameters are typed `any` so that middleware typed with Express's own types fits without `@types/express`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ExpressMiddleware = (req: any, res: any, next: (error?: any) => void) => unknown;
