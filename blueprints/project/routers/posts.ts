import { Get, router } from 'trellis';
import { Int, Path } from 'trellis/param';

/** A router nested under a user: `{user_id}` in the base path reaches every handler as an argument. */
export class PostRouter extends router('/users/{user_id}/posts') {
  /** Lists the user's posts (two made-up ones, for the example). */
  @Get()
  list(@Path('user_id', { type: Int }) userId: number) {
    const posts = [
      { id: 1, title: `Hello from user ${userId}` },
      { id: 2, title: 'Routers can be nested' },
    ];
    return { user_id: userId, posts };
  }
}
