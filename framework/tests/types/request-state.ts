// Compiled by `npm run typecheck` (never run): how `request.state` is typed. Each `@ts-expect-error` line must
// fail to compile, or the typecheck fails. The declaration merging below holds for the whole program: its key
// is named after this file so no other test meets it.
import { Get, Injectable, Middleware, router, Use, type CallNext, type Request, type Response } from 'trellis';
import { Req } from 'trellis/param';

interface TypesTestUser {
  id: number;
  name: string;
}

declare module 'trellis' {
  interface RequestState {
    typesTestUser: TypesTestUser;
  }
}

// A middleware that sets the state: declared keys only, with values of their type.
@Injectable()
export class TypesTestAuth extends Middleware {
  dispatch(request: Request, callNext: CallNext): Promise<Response> {
    request.state.typesTestUser = { id: 1, name: 'ada' };
    // @ts-expect-error: a value of the wrong type
    request.state.typesTestUser = 'ada';
    // @ts-expect-error: a key nobody declared (a typo)
    request.state.typesTestUsr = { id: 1, name: 'ada' };
    // @ts-expect-error: the state object itself is not replaced
    request.state = {};
    return callNext(request);
  }
}

// A handler that reads it: typed, and only what was declared.
export class TypesTestRouter extends router('/types-test') {
  @Get('/me')
  @Use(TypesTestAuth)
  me(@Req() request: Request) {
    const name: string = request.state.typesTestUser.name;
    // @ts-expect-error: `id` is a number
    const id: string = request.state.typesTestUser.id;
    // @ts-expect-error: a key nobody declared
    const role = request.state.role;
    return { name, id, role };
  }
}

// @ts-expect-error: @Use takes middleware, not anything
Use('RequireToken');
