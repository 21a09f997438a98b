import { IsEmail, IsInt, IsString, Length, Max, MaxLength, Min } from 'class-validator';
import { Get, HTTPException, Injectable, Post, router } from 'trellis';
import { Body, Int, Path } from 'trellis/param';
import { UserService, type User } from '../services/user_service';

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

  /** Stored as a scrypt hash; bounded, since hashing costs CPU per character. */
  @IsString()
  @Length(8, 128)
  password!: string;
}

/**
 * Users: a validated body, and a literal path (`/users/me`) next to a parametrised one. The service stores a
 * password hash; the handlers are typed to return `User`, so responses carry `User`'s properties only.
 */
@Injectable()
export class UserRouter extends router('/users') {
  constructor(private readonly users: UserService) {
    super();
  }

  /** Registers a user and answers 201 with it (without its password hash). */
  @Post('/', { status: 201 })
  async create(@Body() body: UserIn): Promise<User> {
    return this.users.add(body);
  }

  /** The current user. A literal path is matched before `/users/{user_id}`, wherever it is declared. */
  @Get('/me')
  me() {
    return { user: 'me', description: 'the signed-in user would be returned here' };
  }

  /** Returns one user; 404 when no user has this id. */
  @Get('/{user_id}')
  one(@Path('user_id', { type: Int }) userId: number): User {
    const user = this.users.get(userId);
    if (!user) throw new HTTPException(404, `User ${userId} not found`);
    return user;
  }
}
