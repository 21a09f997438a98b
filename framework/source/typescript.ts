import type * as TS from 'typescript';

/**
 * The TypeScript compiler API, or undefined when `typescript` is not installed (it is an optional peer
 * dependency: a production install has none). Loaded on first use, never to serve a request.
 */
export function loadTypeScript(): typeof TS | undefined {
  try {
    return require('typescript') as typeof TS;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
}

/** A class of a parsed file, and its name (a class expression takes the name of the variable it is assigned to). */
export interface ClassNode {
  name: string;
  node: TS.ClassLikeDeclaration;
}

/**
 * Every class declared in a parsed file, nested ones included, in source order: what the docs read comments
 * from and what source locations are found in.
 */
export function classNodes(ts: typeof TS, sourceFile: TS.SourceFile): ClassNode[] {
  const classes: ClassNode[] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      const name = node.name?.text ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(sourceFile) : '');
      classes.push({ name, node });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return classes;
}
