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
 * has not expired: 401 otherwise. The routes it guards name the scopes the token must carry with `@Scopes`: 403
 * when one is missing. The token's claims are then `request.user`.
 * Not global: routers/tasks.ts puts it on its writes alone with `@Use(RequireWriter)`; reads need no token.
 * `config.section` checks the section against AuthSettings: a missing or short secret stops the app at startup,
 * and `trellis run` names the line in config.yaml. `security` tells the docs the routes behind it take a bearer
 * JWT (with the scopes `@Scopes` names), so Swagger UI's Authorize button sends one with "Try it out".
 */
@Injectable()
export class RequireWriter extends JwtAuth {
  static readonly security = bearerAuth({ bearerFormat: 'JWT' });

  constructor(config: Config) {
    super({ secret: config.section('auth', AuthSettings).secret, realm: 'tasks' });
  }
}
