import { timingSafeEqual } from 'node:crypto';
import { Config, Injectable, JSONResponse, Middleware, type CallNext, type Request, type Response } from 'trellis';

/**
 * Lets a request through only with `Authorization: Bearer <admin.token from config.yaml>`; otherwise 401.
 * Not global: routers/admin.ts adds it with `this.addMiddleware(RequireToken)`.
 */
@Injectable()
export class RequireToken extends Middleware {
  private readonly expected: Buffer | undefined;

  constructor(config: Config) {
    super();
    const token = config.get<string>('admin.token', '');
    // Without a token in config.yaml nobody gets in.
    this.expected = token ? Buffer.from(`Bearer ${token}`) : undefined;
  }

  async dispatch(request: Request, callNext: CallNext): Promise<Response> {
    const given = Buffer.from(request.headers.authorization ?? '');
    const ok = this.expected !== undefined && given.length === this.expected.length && timingSafeEqual(given, this.expected);
    if (!ok) {
      return new JSONResponse(
        { error: 'Missing or wrong token: send Authorization: Bearer <admin.token from config.yaml>' },
        { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } },
      );
    }
    return callNext(request);
  }
}
