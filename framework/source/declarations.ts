import { readFileSync, statSync } from 'node:fs';
import type * as TS from 'typescript';
import type { SourceLocation } from '../core/types';
import { classNodes, loadTypeScript } from './typescript';

/** A class of a source file: the line of its name, the lines it spans, and the line of each member's name. */
interface ClassDeclaration {
  name: string;
  line: number;
  start: number;
  end: number;
  members: ReadonlyMap<string, number>;
  /** Instance properties declared without a decorator, with the line of each name. */
  bare: ReadonlyArray<{ name: string; line: number }>;
}

/** What the TypeScript parser found in one file, as of its modification time and size. */
interface ParsedFile {
  stamp: string;
  classes: ClassDeclaration[];
  imports: Array<{ specifier: string; line: number }>;
}

const files = new Map<string, ParsedFile>();
const EMPTY: Omit<ParsedFile, 'stamp'> = { classes: [], imports: [] };

/**
 * Where a class, or a member of it (method, property, accessor, `constructor`), is declared: the line of its
 * name in `file`, from the TypeScript syntax tree (JavaScript files too). `near`, a line inside or next to the
 * class, picks between classes of the same name in one file. Undefined when the file cannot be read, declares
 * no such class or member, or `typescript` is not installed. Each file is parsed once while it is unchanged.
 *
 * @example
 * ```ts
 * declarationOf('/home/me/demo/routers/tasks.ts', 'TaskRouter'); // { file: '/home/me/demo/routers/tasks.ts', line: 11 }
 * declarationOf('/home/me/demo/routers/tasks.ts', 'TaskRouter', 'list'); // { file: ..., line: 17 }
 * ```
 */
export function declarationOf(file: string, className: string, member?: string, near?: number): SourceLocation | undefined {
  const candidates = parse(file).classes.filter((c) => c.name === className && (member === undefined || c.members.has(member)));
  const distance = (c: ClassDeclaration) => (near === undefined ? 0 : near < c.start ? c.start - near : Math.max(0, near - c.end));
  const found = candidates.reduce<ClassDeclaration | undefined>((best, c) => (!best || distance(c) < distance(best) ? c : best), undefined);
  if (!found) return undefined;
  return { file, line: member === undefined ? found.line : found.members.get(member)! };
}

/**
 * The instance properties a class declares in `file` without any decorator (`note?: string` beside
 * `@IsString() title!: string`), with the line of each name; static and `#private` ones are not counted. Empty when the
 * file cannot be read, declares no such class, or `typescript` is not installed. `near` is as for {@link declarationOf}.
 *
 * @example
 * ```ts
 * undecoratedProperties('/home/me/demo/routers/tasks.ts', 'TaskIn'); // [{ name: 'note', line: 14 }]
 * ```
 */
export function undecoratedProperties(file: string, className: string, near?: number): ReadonlyArray<{ name: string; line: number }> {
  const found = declarationOf(file, className, undefined, near);
  if (!found) return [];
  return parse(file).classes.find((c) => c.name === className && c.line === found.line)?.bare ?? [];
}

/**
 * The modules a file imports at run time (`import ... from`, `export ... from`, `require(...)`; not `import type`),
 * in order, with the line of each; empty when the file cannot be read or parsed.
 *
 * @example
 * ```ts
 * importsOf('/home/me/demo/routers/tasks.ts'); // [{ specifier: 'trellis', line: 1 }, { specifier: '../services/task_service', line: 4 }]
 * ```
 */
export function importsOf(file: string): ReadonlyArray<{ specifier: string; line: number }> {
  return parse(file).imports;
}

function parse(file: string): Omit<ParsedFile, 'stamp'> {
  const ts = loadTypeScript();
  let stamp: string;
  try {
    if (!ts) return EMPTY;
    const stat = statSync(file);
    stamp = `${stat.mtimeMs}:${stat.size}`;
  } catch {
    return EMPTY;
  }
  const cached = files.get(file);
  if (cached?.stamp === stamp) return cached;
  const sourceFile = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const parsed = { stamp, classes: classesOf(ts, sourceFile), imports: importsIn(ts, sourceFile) };
  files.set(file, parsed);
  return parsed;
}

function classesOf(ts: typeof TS, sourceFile: TS.SourceFile): ClassDeclaration[] {
  const line = (pos: number) => sourceFile.getLineAndCharacterOfPosition(pos).line + 1;
  return classNodes(ts, sourceFile).map(({ name, node }) => {
    const members = new Map<string, number>();
    const bare: Array<{ name: string; line: number }> = [];
    for (const member of node.members) {
      const key = ts.isConstructorDeclaration(member) ? 'constructor' : member.name && memberName(ts, member.name);
      if (key !== undefined && !members.has(key)) members.set(key, line((member.name ?? member).getStart(sourceFile)));
      if (key !== undefined && ts.isPropertyDeclaration(member) && !ts.isPrivateIdentifier(member.name) && !isStatic(ts, member) && !ts.getDecorators(member)?.length) {
        bare.push({ name: key, line: line(member.name.getStart(sourceFile)) });
      }
    }
    const named = node.name ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name : node);
    return { name, line: line(named.getStart(sourceFile)), start: line(node.getStart(sourceFile)), end: line(node.end), members, bare };
  });
}

function isStatic(ts: typeof TS, member: TS.PropertyDeclaration): boolean {
  return ts.getModifiers(member)?.some((modifier) => modifier.kind === ts.SyntaxKind.StaticKeyword) ?? false;
}

function memberName(ts: typeof TS, name: TS.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return undefined;
}

function importsIn(ts: typeof TS, sourceFile: TS.SourceFile): ParsedFile['imports'] {
  const imports: ParsedFile['imports'] = [];
  const add = (specifier: TS.Expression, at: TS.Node) =>
    ts.isStringLiteralLike(specifier) &&
    imports.push({ specifier: specifier.text, line: sourceFile.getLineAndCharacterOfPosition(at.getStart(sourceFile)).line + 1 });
  const visit = (node: TS.Node): void => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) add(node.moduleSpecifier, node);
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) add(node.moduleSpecifier, node);
    else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'require' && node.arguments[0]) {
      add(node.arguments[0], node);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return imports;
}
