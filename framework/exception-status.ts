import type * as TS from 'typescript';
import { loadTypeScript } from './source/typescript';

/**
 * The status an exception handler answers, read from its text (`handler.toString()`) with the TypeScript
 * parser: a `status: 409` in an object literal (`new JSONResponse(body, { status: 409 })`), a
 * `new HTTPException(409, ...)`, a returned `[body, 409]` (also an arrow's expression body). Only statuses from
 * 400 to 599 count. Undefined when `typescript` is not installed, the text cannot be parsed, it shows no such
 * status, or it shows several different ones (which one answers depends on the error: none is documented).
 * Read lazily, when the OpenAPI document is built; never while serving.
 *
 * @example
 * ```ts
 * handlerStatus((error: QuotaExceeded) => [{ error: error.message }, 409]); // 409
 * handlerStatus((error: Error) => logAndRethrow(error)); // undefined
 * ```
 */
export function handlerStatus(handler: Function): number | undefined {
  const ts = loadTypeScript();
  if (!ts) return undefined;
  let text: string;
  try {
    text = Function.prototype.toString.call(handler);
  } catch {
    return undefined;
  }
  if (text.includes('[native code]')) return undefined;
  // An arrow or function expression parses inside parentheses; a method (`handle(error) {...}`) inside an object.
  for (const source of [`(${text});`, `({ ${text} });`]) {
    const file = ts.createSourceFile('handler.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    if (!isOneFunction(ts, file)) continue;
    const statuses = new Set(statusesIn(ts, file));
    return statuses.size === 1 ? [...statuses][0] : undefined;
  }
  return undefined;
}

// Parsed whole as the wrapper meant: one statement holding a function, or an object of one method (the parser's
// diagnostics are not public API; a text that did not fit leaves other statements or nodes behind).
function isOneFunction(ts: typeof TS, file: TS.SourceFile): boolean {
  const [statement, ...rest] = file.statements;
  if (!statement || rest.length || !ts.isExpressionStatement(statement)) return false;
  const inner = unwrap(ts, statement.expression);
  if (ts.isArrowFunction(inner) || ts.isFunctionExpression(inner)) return true;
  return ts.isObjectLiteralExpression(inner) && inner.properties.length === 1 && ts.isMethodDeclaration(inner.properties[0]);
}

function statusesIn(ts: typeof TS, file: TS.SourceFile): number[] {
  const found: number[] = [];
  const add = (expression: TS.Expression | undefined): void => {
    const status = expression && literalStatus(ts, expression);
    if (status !== undefined) found.push(status);
  };
  const tuple = (expression: TS.Expression): void => {
    const node = unwrap(ts, expression);
    if (ts.isArrayLiteralExpression(node) && node.elements.length === 2) add(node.elements[1]);
  };
  const visit = (node: TS.Node): void => {
    if (ts.isPropertyAssignment(node) && propertyName(ts, node.name) === 'status') add(node.initializer);
    else if (ts.isNewExpression(node) && /(^|\.)HTTPException$/.test(node.expression.getText(file))) add(node.arguments?.[0]);
    else if (ts.isReturnStatement(node) && node.expression) tuple(node.expression);
    else if (ts.isArrowFunction(node) && !ts.isBlock(node.body)) tuple(node.body);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function literalStatus(ts: typeof TS, expression: TS.Expression): number | undefined {
  const node = unwrap(ts, expression);
  if (!ts.isNumericLiteral(node)) return undefined;
  const status = Number(node.text);
  return Number.isInteger(status) && status >= 400 && status <= 599 ? status : undefined;
}

function propertyName(ts: typeof TS, name: TS.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;
}

function unwrap(ts: typeof TS, expression: TS.Expression): TS.Expression {
  let node = expression;
  while (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isAwaitExpression(node)) node = node.expression;
  return node;
}
