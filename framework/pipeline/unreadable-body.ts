/**
 * What class-transformer or class-validator threw on a body whose shape they cannot walk (an array of arrays where
 * DTOs are declared holding an object whose own `constructor` is not a class; a nested `constructor: null`): the
 * client's 422 "Input could not be validated". Anything else thrown while validating a body is a defect, a 500.
 */
export class UnreadableBody extends Error {
  constructor(cause: unknown) {
    super('A validation library could not read the body', { cause });
    this.name = 'UnreadableBody';
  }
}

/** `call()`'s result; what it throws becomes an {@link UnreadableBody}. Only around the libraries' own calls. */
export function readByLibrary<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    throw new UnreadableBody(error);
  }
}
