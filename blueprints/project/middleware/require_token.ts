import { timingSafeEqual } from 'node:crypto';
import { Config, Injectable, JSONResponse, Middleware, type CallNext, type Request, type Response } from 'trellis';

/**
 * Lets a request through only with `Authorization: Bearer <admin.token>`; otherwise 401. config.yaml reads the
 * token from the environment (`admin: { token: ${ADMIN_TOKEN} }`; `.env` holds it in development).
 * Not global: routers/admin.ts adds it with `this.addMiddleware(RequireToken)`.
 * The token must be a non-empty string: `config.string` refuses anything else (a typo like `token: true` or
 * `token: { x: 1 }`), so the app does not start, and `trellis run` names the line in config.yaml.
 */
@Injectable()
export class RequireToken extends Middleware {
  private readonly expected: Buffer;

  constructor(config: Config) {
    super();
    this.expected = Buffer.from(`Bearer ${config.string('admin.token')}`);
  }

  async dispatch(request: Request, callNext: CallNext): Promise<Response> {
    const given = Buffer.from(request.headers.authorization ?? '');
    const ok = given.length === this.expected.length && timingSafeEqual(given, this.expected);
    if (!ok) {
      return new JSONResponse(
        { error: 'Missing or wrong token: send Authorization: Bearer <ADMIN_TOKEN>' },
        { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } },
      );
    }
    return callNext(request);
  }
}
