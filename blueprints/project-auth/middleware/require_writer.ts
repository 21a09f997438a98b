import { IsString, MinLength } from 'class-validator';
import { Config, Injectable, Middleware, type CallNext, type Request, type Response } from 'trellis';
import { jwtAuth } from 'trellis/auth';
import { bearerAuth } from 'trellis/security';

/** The `auth:` section of config.yaml, checked when the app starts. */
export class AuthSettings {
  /**
   * The HS256 key that signs and verifies tokens. config.yaml reads it from the environment (JWT_SECRET; `.env`
   * holds it in development). At least 32 characters: `trellis create` makes up 43.
   */
  @IsString()
  @MinLength(32)
  secret!: string;
}

/** The scope a token needs to create, replace or delete tasks. */
export const WRITE_SCOPE = 'tasks:write';

/**
 * Lets a request through only with `Authorization: Bearer <token>`, a JWT signed with `auth.secret` (HS256) that
 * has not expired and whose `scope` holds `tasks:write`: 401 without a valid token, 403 without the scope. The
 * token's claims are then `request.user`. `jwtAuth` from `trellis/auth` does the work; this class builds it from
 * config.yaml, so the container can (the secret is known once the app's Config is).
 * Not global: routers/tasks.ts puts it on its writes alone with `@Use(RequireWriter)`; reads need no token.
 * `config.section` checks the section against AuthSettings: a missing or short secret stops the app at startup,
 * and `trellis run` names the line in config.yaml. `security` tells the docs the routes behind it take a bearer
 * JWT, so Swagger UI's Authorize button sends one with "Try it out" (named apart from the admin example's
 * `bearerAuth`, a static token).
 */
@Injectable()
export class RequireWriter extends Middleware {
  static readonly security = bearerAuth({ schemeName: 'bearerJwt', bearerFormat: 'JWT' });

  private readonly guard: Middleware;

  constructor(config: Config) {
    super();
    const { secret } = config.section('auth', AuthSettings);
    this.guard = jwtAuth({ secret, realm: 'tasks', scopes: [WRITE_SCOPE] });
  }

  dispatch(request: Request, callNext: CallNext): Response | Promise<Response> {
    return this.guard.dispatch(request, callNext);
  }
}
