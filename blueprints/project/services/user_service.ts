/** A user as the API returns it. */
export interface User {
  id: number;
  name: string;
  email: string;
  age: number;
}

/** The users, in memory; there are none until someone posts one. */
export class UserService {
  private readonly users = new Map<number, User>();
  private nextId = 1;

  get(id: number): User | undefined {
    return this.users.get(id);
  }

  count(): number {
    return this.users.size;
  }

  add(input: Omit<User, 'id'>): User {
    const user = { id: this.nextId++, name: input.name, email: input.email, age: input.age };
    this.users.set(user.id, user);
    return user;
  }
}
