import type * as TS from 'typescript';
import { classNodes } from '../typescript';

/**
 * The decorated methods of every class of a file (the handlers a router can declare), each with its key in a
 * {@link TypeTable}: `Class.method`.
 */
export function readMethods(ts: typeof TS, sourceFile: TS.SourceFile): Array<{ key: string; method: TS.MethodDeclaration }> {
  const found: Array<{ key: string; method: TS.MethodDeclaration }> = [];
  for (const { name, node } of classNodes(ts, sourceFile)) {
    if (!name) continue;
    for (const member of node.members) {
      if (!ts.isMethodDeclaration(member) || !ts.getDecorators(member)?.length) continue;
      const methodName = ts.isIdentifier(member.name) || ts.isStringLiteral(member.name) || ts.isNumericLiteral(member.name) ? member.name.text : undefined;
      if (methodName !== undefined) found.push({ key: `${name}.${methodName}`, method: member });
    }
  }
  return found;
}
