import { randomBytes } from 'node:crypto';

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

/** The users, in memory; there are none until someone posts one. */
export class UserService {
  private readonly users = new Map<number, StoredUser>();
  private nextId = 1;

  get(id: number): StoredUser | undefined {
    return this.users.get(id);
  }

  count(): number {
    return this.users.size;
  }

  add(input: NewUser): StoredUser {
    const emailToken = randomBytes(24).toString('base64url');
    const user = { id: this.nextId++, name: input.name, email: input.email, age: input.age, emailToken };
    this.users.set(user.id, user);
    return user;
  }
}
