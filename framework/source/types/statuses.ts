import type * as TS from 'typescript';
import type { StatusFact } from './table';

/** How many declarations a thrown value is followed through (a helper calling a helper calling a helper). */
const MAX_DEPTH = 3;
/** How many ancestors of a thrown class are looked at for `HTTPException`. */
const MAX_ANCESTORS = 10;

/**
 * The statuses a handler's body can answer besides its success, and the names of the other classes it throws,
 * read from the method's body (arrow callbacks inside it included; nested function and class declarations not):
 * - `throw new HTTPException(404, 'Task 1 not found')`: 404, with its message when the message is a literal;
 * - `throw notFound(id)` / `const e = notFound(id); throw e`, where `notFound` (a function, an arrow, a method)
 *   returns or creates one: followed through its declaration, up to 3 levels;
 * - `throw new NotFound()` where `NotFound extends HTTPException` and calls `super(404, ...)`;
 * - `return [{ error: '...' }, 404]` (`as const` or not), a literal status of 400 or more: the status only;
 * - `throw new OtherError()`, not an `HTTPException`: `'OtherError'` in `throws` (an exception handler may map it).
 * Statuses are deduplicated and sorted; a message is kept when every throw of that status that has one agrees.
 * Never throws on code it does not understand: what it cannot read is left out.
 *
 * @example
 * ```ts
 * const { statuses, throws } = statusesOf(ts, program.getTypeChecker(), method);
 * // statuses: [{ status: 404, message: 'Task not found' }], throws: ['QuotaExceeded']
 * ```
 */
export function statusesOf(ts: typeof TS, checker: TS.TypeChecker, method: TS.MethodDeclaration): { statuses: StatusFact[]; throws: string[] } {
  const reader = new StatusReader(ts, checker);
  if (method.body) reader.readBody(method.body);
  return reader.result();
}

/** A thrown value's meaning: an `HTTPException` with its status (and message), or another class by name. */
type Thrown = { status: number; message?: string } | { className: string };

class StatusReader {
  readonly #ts: typeof TS;
  readonly #checker: TS.TypeChecker;
  readonly #messages = new Map<number, Set<string | undefined>>();
  readonly #throws = new Set<string>();

  constructor(ts: typeof TS, checker: TS.TypeChecker) {
    this.#ts = ts;
    this.#checker = checker;
  }

  readBody(body: TS.Block): void {
    const ts = this.#ts;
    const visit = (node: TS.Node, nested: boolean): void => {
      if (ts.isFunctionDeclaration(node) || ts.isClassLike(node) || ts.isMethodDeclaration(node) || ts.isAccessor(node)) return;
      if (ts.isThrowStatement(node)) {
        for (const thrown of this.#thrown(node.expression, 0, new Set())) this.#add(thrown);
      } else if (ts.isReturnStatement(node) && !nested && node.expression) {
        const status = this.#tupleStatus(node.expression);
        if (status !== undefined) this.#add({ status });
      }
      const inner = nested || ts.isArrowFunction(node) || ts.isFunctionExpression(node);
      ts.forEachChild(node, (child) => visit(child, inner));
    };
    ts.forEachChild(body, (child) => visit(child, false));
  }

  result(): { statuses: StatusFact[]; throws: string[] } {
    const statuses = [...this.#messages]
      .sort(([a], [b]) => a - b)
      .map(([status, messages]): StatusFact => {
        const known = [...messages].filter((message): message is string => message !== undefined);
        return known.length === 1 ? { status, message: known[0] } : { status };
      });
    return { statuses, throws: [...this.#throws].sort() };
  }

  #add(thrown: Thrown): void {
    if ('className' in thrown) {
      this.#throws.add(thrown.className);
      return;
    }
    const messages = this.#messages.get(thrown.status) ?? new Set();
    messages.add(thrown.message);
    this.#messages.set(thrown.status, messages);
  }

  /** What a thrown (or returned, by a helper) expression is, followed through variables and calls. */
  #thrown(expression: TS.Expression, depth: number, seen: Set<TS.Node>): Thrown[] {
    const ts = this.#ts;
    const node = this.#unwrap(expression);
    if (seen.has(node) || depth > MAX_DEPTH) return [];
    seen.add(node);
    if (ts.isNewExpression(node)) return this.#created(node);
    if (ts.isConditionalExpression(node)) return [...this.#thrown(node.whenTrue, depth, seen), ...this.#thrown(node.whenFalse, depth, seen)];
    if (ts.isIdentifier(node)) {
      const declaration = this.#declaration(node);
      if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer) return this.#thrown(declaration.initializer, depth + 1, seen);
      return [];
    }
    if (ts.isCallExpression(node)) {
      const declaration = this.#declaration(node.expression);
      const body = declaration && this.#functionBody(declaration);
      if (!body) return [];
      if (!ts.isBlock(body)) return this.#thrown(body, depth + 1, seen);
      return this.#returned(body).flatMap((returned) => this.#thrown(returned, depth + 1, seen));
    }
    return [];
  }

  /** `new HTTPException(404, 'msg')`, `new NotFound()` (a subclass) or `new OtherError()`. */
  #created(node: TS.NewExpression): Thrown[] {
    const ts = this.#ts;
    const declaration = this.#declaration(node.expression);
    const written = ts.isIdentifier(node.expression) ? node.expression.text : undefined;
    if (!declaration || !ts.isClassLike(declaration)) {
      // `Error` and its kin are declared as a variable and an interface; an unresolved import has no declaration.
      if (written === 'HTTPException') return this.#exception(node.arguments ?? []);
      return written ? [{ className: written }] : [];
    }
    const thrown = this.#fromClass(declaration, [...(node.arguments ?? [])], 0);
    if (thrown) return [thrown];
    if (thrown === null) return [];
    const name = declaration.name?.text ?? written;
    return name ? [{ className: name }] : [];
  }

  /**
   * The status a class's constructor gives `HTTPException`, the arguments of `new` mapped through `super(...)`:
   * undefined when the class is no HTTPException, null when it is one whose status cannot be read.
   */
  #fromClass(declaration: TS.ClassLikeDeclaration, args: ReadonlyArray<TS.Expression | undefined>, ancestors: number): Thrown | null | undefined {
    const ts = this.#ts;
    if (declaration.name?.text === 'HTTPException') return this.#exception(args)[0] ?? null;
    if (ancestors > MAX_ANCESTORS) return undefined;
    const base = declaration.heritageClauses?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
    const parent = base && this.#declaration(base.expression);
    if (!parent || !ts.isClassLike(parent) || parent === declaration) return undefined;
    const constructor = declaration.members.find((member): member is TS.ConstructorDeclaration => ts.isConstructorDeclaration(member));
    if (!constructor) return this.#fromClass(parent, args, ancestors + 1);
    // A declaration file's constructor has no body: which status it gives cannot be read.
    const superCall = constructor.body && this.#superCall(constructor.body);
    const mapped = superCall?.arguments.map((arg) => {
      const unwrapped = this.#unwrap(arg);
      if (!ts.isIdentifier(unwrapped)) return arg;
      const index = constructor.parameters.findIndex((parameter) => ts.isIdentifier(parameter.name) && parameter.name.text === unwrapped.text);
      return index < 0 ? arg : (args[index] ?? constructor.parameters[index].initializer);
    });
    return this.#fromClass(parent, mapped ?? [], ancestors + 1);
  }

  /** `HTTPException`'s own arguments: a literal status (400 or more), a literal message. */
  #exception(args: ReadonlyArray<TS.Expression | undefined>): Thrown[] {
    const status = args[0] && this.#literal(args[0]);
    if (typeof status !== 'number' || status < 400 || status > 599) return [];
    const message = args[1] && this.#literal(args[1]);
    return [typeof message === 'string' ? { status, message } : { status }];
  }

  /** `[body, 404]` or `[body, 404] as const`: its status when it is a literal of 400 or more. */
  #tupleStatus(expression: TS.Expression): number | undefined {
    const node = this.#unwrap(expression);
    if (!this.#ts.isArrayLiteralExpression(node) || node.elements.length !== 2) return undefined;
    const status = this.#literal(node.elements[1]);
    return typeof status === 'number' && status >= 400 && status <= 599 ? status : undefined;
  }

  #literal(expression: TS.Expression): number | string | undefined {
    const ts = this.#ts;
    const node = this.#unwrap(expression);
    if (ts.isNumericLiteral(node)) return Number(node.text);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    const type = this.#checker.getTypeAtLocation(node);
    if (type.isNumberLiteral() || type.isStringLiteral()) return type.value;
    return undefined;
  }

  /** The first `super(...)` call of a constructor's body. */
  #superCall(body: TS.Block): TS.CallExpression | undefined {
    const ts = this.#ts;
    let found: TS.CallExpression | undefined;
    const visit = (node: TS.Node): void => {
      if (found || ts.isFunctionLike(node) || ts.isClassLike(node)) return;
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.SuperKeyword) found = node;
      else ts.forEachChild(node, visit);
    };
    ts.forEachChild(body, visit);
    return found;
  }

  /** The expressions a function's body returns (its own `return`s, not those of functions inside it). */
  #returned(body: TS.Block): TS.Expression[] {
    const ts = this.#ts;
    const found: TS.Expression[] = [];
    const visit = (node: TS.Node): void => {
      if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
      if (ts.isReturnStatement(node) && node.expression) found.push(node.expression);
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(body, visit);
    return found;
  }

  #functionBody(declaration: TS.Declaration): TS.ConciseBody | undefined {
    const ts = this.#ts;
    if (ts.isFunctionDeclaration(declaration) || ts.isMethodDeclaration(declaration)) return declaration.body;
    if (ts.isVariableDeclaration(declaration) && declaration.initializer) {
      const initializer = this.#unwrap(declaration.initializer);
      if (ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer)) return initializer.body;
    }
    if (ts.isPropertyDeclaration(declaration) && declaration.initializer) {
      const initializer = this.#unwrap(declaration.initializer);
      if (ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer)) return initializer.body;
    }
    return undefined;
  }

  /** The declaration a name (or `this.name`, `Module.name`) refers to, through imports. */
  #declaration(expression: TS.Expression): TS.Declaration | undefined {
    let symbol = this.#checker.getSymbolAtLocation(this.#unwrap(expression));
    if (symbol && symbol.flags & this.#ts.SymbolFlags.Alias) symbol = this.#checker.getAliasedSymbol(symbol);
    return symbol?.valueDeclaration ?? symbol?.declarations?.[0];
  }

  #unwrap(expression: TS.Expression): TS.Expression {
    const ts = this.#ts;
    let node = expression;
    while (
      ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node) ||
      ts.isSatisfiesExpression(node) || ts.isTypeAssertionExpression(node) || ts.isAwaitExpression(node)
    ) node = node.expression;
    return node;
  }
}
