import { IsString, MinLength } from 'class-validator';
import { Config, Injectable } from 'trellis';
import { JwtAuth } from 'trellis/auth';
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

/**
 * Lets a request through only with `Authorization: Bearer <token>`, a JWT signed with `auth.secret` (HS256) that
 * has not expired: 401 otherwise. The token's claims are then `request.user`, and the scopes the route names with
 * `@Scopes` must be in its `scope` claim: 403 otherwise. `JwtAuth` from `trellis/auth` does the work; this class
 * extends it to read the secret from config.yaml, so the container builds it once the app's Config is known.
 * Not global: routers/tasks.ts puts it on its writes alone with `@Use(RequireWriter)` and `@Scopes('tasks:write')`;
 * reads need no token. `config.section` checks the section against AuthSettings: a missing or short secret stops
 * the app at startup, and `trellis run` names the line in config.yaml. `security` tells the docs the routes behind
 * it take a bearer JWT (with the scopes each route needs), so Swagger UI's Authorize button sends one with
 * "Try it out" (named apart from the admin example's `bearerAuth`, a static token).
 */
@Injectable()
export class RequireWriter extends JwtAuth {
  static readonly security = bearerAuth({ schemeName: 'bearerJwt', bearerFormat: 'JWT' });

  constructor(config: Config) {
    super({ secret: config.section('auth', AuthSettings).secret, realm: 'tasks' });
  }
}
