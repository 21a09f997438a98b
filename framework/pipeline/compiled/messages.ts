import type { ValidationArguments } from 'class-validator';

/** A rule's message for a failing value: `object` is what class-validator passes as `ValidationArguments.object`. */
export type MessageOf = (value: unknown, object: object) => string;

/** What a message is made from: the decorator's `message` (string or function) or the constraint's default. */
export interface MessageSource {
  message: string | ((args: ValidationArguments) => string) | undefined;
  /** The constraint's `defaultMessage`, for a rule without `message`. */
  defaultMessage?: (args: ValidationArguments) => string;
  /** Whether `defaultMessage` reads the value (then it runs per failure). */
  defaultReadsValue?: boolean;
  property: string;
  targetName: string | undefined;
  constraints: unknown[] | undefined;
}

/**
 * Compiles the message class-validator would give a failing rule (`createValidationError` + `replaceMessageSpecialTokens`
 * of class-validator 0.14): the tokens `$constraintN`, `$property` and `$target` are replaced once, here; a message
 * that is a function, reads the value, or still has a `$value` token is finished per failure.
 *
 * @example
 * ```ts
 * const of = messageOf({ message: undefined, defaultMessage: () => '$property must be a string', property: 'title',
 *   targetName: 'TaskIn', constraints: undefined });
 * of(1, task); // 'title must be a string'
 * ```
 */
export function messageOf(source: MessageSource): MessageOf {
  const { message, defaultMessage, property, targetName, constraints } = source;
  const argsOf = (value: unknown, object: object): ValidationArguments =>
    ({ targetName, property, object, value, constraints } as ValidationArguments);
  const perFailure = (value: unknown, object: object): string => {
    const args = argsOf(value, object);
    let text: unknown = message || '';
    if (!message && defaultMessage instanceof Function) text = defaultMessage(args);
    return replaceTokens(text, args);
  };
  if (message instanceof Function) return perFailure;
  if (!message && source.defaultReadsValue) {
    // The default picks one of a few templates (Length's three): each is finished once, unless it shows the value.
    const finished = new Map<unknown, string | undefined>();
    return (value, object) => {
      const template = defaultMessage!(argsOf(value, object));
      let done = finished.get(template);
      if (done === undefined && !finished.has(template)) {
        done = typeof template === 'string' && !replaceConstraints(template, constraints).includes('$value')
          ? replaceTokens(template, argsOf(undefined, object))
          : undefined;
        finished.set(template, done);
      }
      return done ?? perFailure(value, object);
    };
  }
  const text: unknown = message || (defaultMessage instanceof Function ? defaultMessage(argsOf(undefined, {})) : '');
  if (typeof text !== 'string' || !text) return () => text as string;
  const withConstraints = replaceConstraints(text, constraints);
  if (withConstraints.includes('$value')) return perFailure;
  const done = replaceNames(withConstraints, property, targetName);
  return () => done;
}

/** class-validator's `ValidationUtils.replaceMessageSpecialTokens`, step for step. */
export function replaceTokens(message: unknown, args: ValidationArguments): string {
  let text: any;
  if (message instanceof Function) text = message(args);
  else if (typeof message === 'string') text = message;
  if (text) text = replaceConstraints(text, args.constraints);
  const { value } = args;
  if (text && value !== undefined && value !== null && ['string', 'boolean', 'number'].includes(typeof value)) {
    text = text.replace(/\$value/g, value as string);
  }
  if (text) text = replaceNames(text, args.property, args.targetName);
  return text;
}

function replaceConstraints(text: string, constraints: unknown): string {
  if (!Array.isArray(constraints)) return text;
  constraints.forEach((constraint, index) => {
    text = text.replace(new RegExp(`\\$constraint${index + 1}`, 'g'), constraintToString(constraint));
  });
  return text;
}

function replaceNames(text: string, property: string, targetName: string | undefined): string {
  if (text) text = text.replace(/\$property/g, property);
  if (text) text = text.replace(/\$target/g, targetName as string);
  return text;
}

function constraintToString(constraint: unknown): string {
  if (Array.isArray(constraint)) return constraint.join(', ');
  if (typeof constraint === 'symbol') constraint = constraint.description;
  return `${constraint}`;
}
