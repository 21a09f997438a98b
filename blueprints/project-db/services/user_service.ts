import { randomBytes } from 'node:crypto';
import { Kysely, sql, type Selectable } from 'kysely';
import { Injectable } from 'trellis';
import type { Tables, UserTable } from '../db/schema';

/** What `add` needs to create a user: the fields of `POST /users`. */
export interface NewUser {
  name: string;
  email: string;
  age: number;
}

/**
 * A user as stored: the id and what the server makes itself, the secret of the link that confirms the e-mail
 * address (a real app e-mails it). The routes answer with `UserOut`, which leaves the secret out: a client that
 * saw it could confirm an address it does not own.
 */
export interface StoredUser extends NewUser {
  id: number;
  emailToken: string;
}

/** The users, in the `users` table; there are none until someone posts one. */
@Injectable()
export class UserService {
  constructor(private readonly db: Kysely<Tables>) {}

  async get(id: number): Promise<StoredUser | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toUser(row);
  }

  async count(): Promise<number> {
    const { count } = await this.db.selectFrom('users').select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow();
    return count;
  }

  async add(input: NewUser): Promise<StoredUser> {
    const emailToken = randomBytes(24).toString('base64url');
    const row = await this.db
      .insertInto('users')
      .values({ name: input.name, email: input.email, age: input.age, email_token: emailToken })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toUser(row);
  }
}

function toUser(row: Selectable<UserTable>): StoredUser {
  return { id: row.id, name: row.name, email: row.email, age: row.age, emailToken: row.email_token };
}
