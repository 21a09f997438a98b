import { timingSafeEqual } from 'node:crypto';
import { IsNotEmpty, IsString } from 'class-validator';
import { Config, Injectable, JSONResponse, Middleware, type CallNext, type Request, type Response } from 'trellis';
import { bearerAuth } from 'trellis/security';

/** The `admin:` section of config.yaml, checked when the app starts. */
export class AdminSettings {
  /** What `Authorization: Bearer <token>` must carry. config.yaml reads it from the environment (ADMIN_TOKEN). */
  @IsNotEmpty()
  @IsString()
  token!: string;
}

/**
 * Lets a request through only with `Authorization: Bearer <admin.token>`; otherwise 401. config.yaml reads the
 * token from the environment (`admin: { token: ${ADMIN_TOKEN} }`; `.env` holds it in development).
 * Not global: routers/admin.ts puts it on its routes with `@Use(RequireToken)`.
 * `config.section` checks the section against AdminSettings: a token that is not a non-empty string (a typo like
 * `token: true`), a missing one or a key AdminSettings does not declare stops the app at startup, and
 * `trellis run` names the line in config.yaml.
 * `security` tells the docs which credentials it checks: the routes behind it are documented with the bearer
 * scheme and a 401, and Swagger UI's Authorize button sends the token with "Try it out".
 */
@Injectable()
export class RequireToken extends Middleware {
  static readonly security = bearerAuth();

  private readonly expected: Buffer;

  constructor(config: Config) {
    super();
    const admin = config.section('admin', AdminSettings);
    this.expected = Buffer.from(`Bearer ${admin.token}`);
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
