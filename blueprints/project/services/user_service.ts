import { randomBytes, scrypt } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, length: number) => Promise<Buffer>;

/** A user as the API returns it. */
export interface User {
  id: number;
  name: string;
  email: string;
  age: number;
}

/**
 * A user as stored: with the scrypt hash of the password given at creation. The routes are typed to return
 * `User`, so trellis sends only `User`'s properties: the hash never leaves the server.
 */
export interface StoredUser extends User {
  passwordHash: string;
}

/** What `add` needs to create a user. */
export interface NewUser {
  name: string;
  email: string;
  age: number;
  password: string;
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

  async add(input: NewUser): Promise<StoredUser> {
    const salt = randomBytes(16);
    const key = await scryptAsync(input.password, salt, 32);
    const passwordHash = `scrypt$${salt.toString('base64url')}$${key.toString('base64url')}`;
    const user = { id: this.nextId++, name: input.name, email: input.email, age: input.age, passwordHash };
    this.users.set(user.id, user);
    return user;
  }
}
