import { IsEmail, IsInt, IsString, Length, Max, MaxLength, Min } from 'class-validator';
import { Get, HTTPException, Injectable, Post, router } from 'trellis';
import { Body, Int, Path } from 'trellis/param';
import { UserService } from '../services/user_service';

/** The body of `POST /users`. */
export class UserIn {
  @IsString()
  @Length(1, 100)
  name!: string;

  @IsEmail()
  @MaxLength(254) // the longest address SMTP can carry (RFC 5321)
  email!: string;

  @IsInt()
  @Min(13)
  @Max(120)
  age!: number;
}

/** A user as responses carry it: the stored user without its e-mail confirmation secret. */
export class UserOut {
  @IsInt()
  id!: number;

  @IsString()
  name!: string;

  @IsEmail()
  email!: string;

  @IsInt()
  age!: number;
}

/**
 * Users: a validated body, and a literal path (`/users/me`) next to a parametrised one. The service stores more
 * than a client may see; `response: UserOut` sends `UserOut`'s properties only.
 */
@Injectable()
export class UserRouter extends router('/users') {
  constructor(private readonly users: UserService) {
    super();
  }

  /** Registers a user and answers 201 with it. */
  @Post('/', { status: 201, response: UserOut })
  async create(@Body() body: UserIn): Promise<UserOut> {
    return this.users.add(body);
  }

  /** The current user. A literal path is matched before `/users/{user_id}`, wherever it is declared. */
  @Get('/me')
  me() {
    return { user: 'me', description: 'the signed-in user would be returned here' };
  }

  /** Returns one user; 404 when no user has this id. */
  @Get('/{user_id}', { response: UserOut })
  async one(@Path('user_id', { type: Int }) userId: number): Promise<UserOut> {
    const user = await this.users.get(userId);
    if (!user) throw new HTTPException(404, `User ${userId} not found`);
    return user;
  }
}
