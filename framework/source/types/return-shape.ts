import type * as TS from 'typescript';
import type { SchemaConverter } from './json-schema';
import type { ReturnShape, StatusFact, TypeSchema } from './table';

type ResponseKind = Exclude<ReturnShape['kind'], 'json'>;

/** Which kind each of trellis's own response classes answers with; the nearest class up the chain wins. */
const RESPONSE_KINDS: Record<string, ResponseKind> = {
  TemplateResponse: 'html',
  HTMLResponse: 'html',
  RedirectResponse: 'redirect',
  FileResponse: 'file',
  EventSourceResponse: 'events',
  StreamingResponse: 'stream',
  JSONResponse: 'response',
  Response: 'response',
};

/** What Node and the standard library's types answer as (a body `toResponse` streams, bytes). */
const BUILTIN_KINDS: Record<string, ResponseKind> = {
  Readable: 'stream',
  AsyncGenerator: 'stream',
  AsyncIterable: 'stream',
  AsyncIterableIterator: 'stream',
  ReadableStream: 'stream',
  Buffer: 'file',
  Uint8Array: 'file',
};
const BUILTIN_FILE = /[\\/]node_modules[\\/]|[\\/]lib\.[\w.]+\.d\.ts$/;

// trellis's sources (framework/response.ts, framework/responses/*.ts, framework/templates/*.ts) or its .d.ts files.
const TRELLIS_FILE = /[\\/]framework[\\/](?:response|responses[\\/][\w-]+|templates[\\/][\w-]+)\.(?:d\.)?ts$/;

/** What a handler's return type says: its success shape, and the error statuses of `[body, 404]` members of a union. */
export interface ReadReturn {
  returns?: ReturnShape;
  statuses: StatusFact[];
}

/**
 * Reads a handler's success response from its declared return type (else the inferred one), `Promise<T>`
 * unwrapped: trellis's response classes by kind, `void`/`undefined` as `empty`, `[T, 201]` as JSON with its
 * status, anything else as JSON with the schema `convert` gives its type node.
 */
export function returnShapeOf(ts: typeof TS, checker: TS.TypeChecker, method: TS.MethodDeclaration, converter: SchemaConverter): ReadReturn {
  const signature = checker.getSignatureFromDeclaration(method);
  if (!signature) return { statuses: [] };
  const returned = checker.getReturnTypeOfSignature(signature);
  const type = checker.getAwaitedType(returned) ?? returned;
  const reader = new ShapeReader(ts, checker, method, converter);
  if (!method.type) {
    // `return [body, 404]` without `as const` is inferred as an array of `body | number`: the literals say more.
    const parts = reader.returnedParts();
    if (parts) return reader.read(parts, undefined, type);
  }
  if (type.flags & ts.TypeFlags.Never) return { statuses: [] };
  const members = type.isUnion() ? type.types : [type];
  return reader.read(members.map((member) => reader.part(member)), unwrapPromise(ts, method.type), type);
}

/** One thing a handler can return: a type, or a `[body, status]` tuple. */
interface Part {
  type: TS.Type;
  tuple?: { body: TS.Type; status: number };
}

class ShapeReader {
  constructor(
    private readonly ts: typeof TS,
    private readonly checker: TS.TypeChecker,
    private readonly method: TS.MethodDeclaration,
    private readonly converter: SchemaConverter,
  ) {}

  part(type: TS.Type): Part {
    return { type, tuple: this.#tuple(type) };
  }

  /** What the method's `return` statements give, when one of them is an array literal `[body, <number>]`; else undefined. */
  returnedParts(): Part[] | undefined {
    const { ts, checker } = this;
    const parts: Part[] = [];
    let literal = false;
    const visit = (node: TS.Node): void => {
      if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
      if (ts.isReturnStatement(node) && node.expression) {
        let expression = node.expression;
        while (ts.isParenthesizedExpression(expression) || ts.isAwaitExpression(expression)) expression = expression.expression;
        const elements = ts.isArrayLiteralExpression(expression) ? expression.elements : undefined;
        const [body, status] = elements ?? [];
        if (elements?.length === 2 && body && status && ts.isNumericLiteral(status)) {
          literal = true;
          parts.push({ type: checker.getTypeAtLocation(body), tuple: { body: checker.getTypeAtLocation(body), status: Number(status.text) } });
        } else {
          const type = checker.getTypeAtLocation(expression);
          const awaited = checker.getAwaitedType(type) ?? type;
          for (const member of awaited.isUnion() ? awaited.types : [awaited]) parts.push(this.part(member));
        }
      }
      ts.forEachChild(node, visit);
    };
    if (this.method.body) ts.forEachChild(this.method.body, visit);
    return literal ? parts : undefined;
  }

  read(parts: Part[], declared: TS.TypeNode | undefined, whole: TS.Type): ReadReturn {
    const { ts } = this;
    const special = parts.some((part) => part.tuple || this.#responseKind(part.type));
    if (!special) {
      if (parts.every((part) => this.#isEmpty(part.type))) return { returns: { kind: 'empty' }, statuses: [] };
      return { returns: { kind: 'json', schema: this.#schema(whole, declared) }, statuses: [] };
    }
    // Response classes or `[body, status]` tuples among what it returns: each part read alone.
    const statuses: StatusFact[] = [];
    const successes: ReturnShape[] = [];
    const bodies: TS.Type[] = [];
    let empty = false;
    for (const { type, tuple } of parts) {
      const kind = this.#responseKind(type);
      if (kind) successes.push({ kind });
      else if (tuple) {
        const schema = this.#schema(tuple.body, tupleBody(ts, declared, parts.length === 1));
        if (tuple.status >= 400 && parts.length > 1) {
          if (!statuses.some((fact) => fact.status === tuple.status)) statuses.push({ status: tuple.status, schema });
        } else successes.push({ kind: 'json', schema, status: tuple.status });
      } else if (this.#isEmpty(type)) empty = true;
      else if (!bodies.includes(type)) bodies.push(type);
    }
    if (bodies.length) successes.unshift({ kind: 'json', schema: this.#union(bodies) });
    if (!successes.length && empty) successes.push({ kind: 'empty' });
    return { returns: successes[0], statuses };
  }

  #isEmpty(type: TS.Type): boolean {
    return (type.flags & (this.ts.TypeFlags.Void | this.ts.TypeFlags.Undefined)) !== 0;
  }

  #schema(type: TS.Type, declared: TS.TypeNode | undefined): TypeSchema {
    return this.converter.convert(declared ?? this.#nodeOf(type) ?? this.ts.factory.createKeywordTypeNode(this.ts.SyntaxKind.UnknownKeyword));
  }

  #union(types: TS.Type[]): TypeSchema {
    if (types.length === 1) return this.#schema(types[0], undefined);
    return { anyOf: types.map((type) => this.#schema(type, undefined)) };
  }

  #nodeOf(type: TS.Type): TS.TypeNode | undefined {
    const { NoTruncation, IgnoreErrors, UseAliasDefinedOutsideCurrentScope } = this.ts.NodeBuilderFlags;
    return this.checker.typeToTypeNode(type, this.method, NoTruncation | IgnoreErrors | UseAliasDefinedOutsideCurrentScope);
  }

  /** `[body, 201]`: a tuple of two whose second element is a number literal. */
  #tuple(type: TS.Type): { body: TS.Type; status: number } | undefined {
    if (!this.checker.isTupleType(type)) return undefined;
    const elements = this.checker.getTypeArguments(type as TS.TypeReference);
    const status = elements[1];
    if (elements.length !== 2 || !status?.isNumberLiteral()) return undefined;
    return { body: elements[0], status: status.value };
  }

  /** The kind of trellis response class `type` is or extends, nearest first. */
  #responseKind(type: TS.Type): ResponseKind | undefined {
    const seen = new Set<TS.Type>();
    const visit = (current: TS.Type): ResponseKind | undefined => {
      if (seen.has(current)) return undefined;
      seen.add(current);
      const symbol = current.getSymbol();
      if (symbol && Object.hasOwn(RESPONSE_KINDS, symbol.name) && symbol.declarations?.some((d) => TRELLIS_FILE.test(d.getSourceFile().fileName))) {
        return RESPONSE_KINDS[symbol.name];
      }
      if (symbol && Object.hasOwn(BUILTIN_KINDS, symbol.name) && symbol.declarations?.some((d) => BUILTIN_FILE.test(d.getSourceFile().fileName))) {
        return BUILTIN_KINDS[symbol.name];
      }
      if (!(current.flags & this.ts.TypeFlags.Object) || !((current as TS.ObjectType).objectFlags & this.ts.ObjectFlags.ClassOrInterface)) {
        const target = (current as TS.TypeReference).target;
        return target && target !== current ? visit(target) : undefined;
      }
      for (const base of this.checker.getBaseTypes(current as TS.InterfaceType)) {
        const kind = visit(base);
        if (kind) return kind;
      }
      return undefined;
    };
    return visit(type);
  }
}

/** `Promise<T>` / `PromiseLike<T>` as written -> `T`. */
function unwrapPromise(ts: typeof TS, node: TS.TypeNode | undefined): TS.TypeNode | undefined {
  while (node && ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) && /^Promise(Like)?$/.test(node.typeName.text) && node.typeArguments?.length === 1) {
    node = node.typeArguments[0];
  }
  while (node && ts.isParenthesizedTypeNode(node)) node = node.type;
  return node;
}

/** The body's node of a declared `[T, 201]` (when it is the whole return type). */
function tupleBody(ts: typeof TS, declared: TS.TypeNode | undefined, whole: boolean): TS.TypeNode | undefined {
  if (!whole || !declared) return undefined;
  let node: TS.TypeNode = declared;
  if (ts.isTypeOperatorNode(node)) node = node.type;
  if (!ts.isTupleTypeNode(node) || node.elements.length !== 2) return undefined;
  const first = node.elements[0];
  return ts.isNamedTupleMember(first) ? first.type : first;
}
