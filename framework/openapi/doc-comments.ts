import { readFileSync } from 'node:fs';
import type * as TS from 'typescript';
import type { RouteInfo } from '../routing/route-info';
import { classNodes, loadTypeScript } from '../source/typescript';
import type { ClassDocs, DocCommentTable, MethodDocs } from './doc-table';

/** What a handler's JSDoc comment and decorators say, read from its source file. */
export interface HandlerDoc {
  summary?: string;
  description?: string;
  deprecated: boolean;
  /** Names given to `@Header(...)` as written, by their lower-case form. */
  headerNames: Map<string, string>;
}

const SOURCE = /\.(?:[cm]?[jt]s|tsx|jsx)$/;

/**
 * Reads doc comments from the files routes were declared in (TypeScript has no run-time docstrings).
 * Each file is parsed once, with the TypeScript parser loaded only when documentation is first built.
 * A file that cannot be read (e.g. shipped without sources), or no `typescript` installed, simply yields
 * no comments. Given a precomputed table (a build's), it reads only the table: no file, no parser.
 */
export class DocComments {
  readonly #files = new Map<string, readonly ClassDocs[]>();
  readonly #table: DocCommentTable | undefined;

  constructor(table?: DocCommentTable) {
    this.#table = table;
  }

  /** The JSDoc of a route's handler, found by class name (the router's or an ancestor's) and method name. */
  handler(route: RouteInfo): HandlerDoc | undefined {
    const method = route.handlerName;
    if (typeof method !== 'string') return undefined;
    const names = classNames(route.router);
    const declaring = this.#classes(route).filter((c) => Object.hasOwn(c.methods, method));
    const order = (c: ClassDocs) => (names.includes(c.name) ? names.indexOf(c.name) : names.length);
    const first = Math.min(...declaring.map(order));
    const docs = nearest(route, declaring.filter((c) => order(c) === first))?.methods[method];
    return docs && handlerDoc(docs);
  }

  /** The JSDoc of a route's router class, for its tag. */
  router(route: RouteInfo): string | undefined {
    const name = route.router.name;
    return nearest(route, this.#classes(route).filter((c) => c.name === name))?.description;
  }

  #classes(route: RouteInfo): readonly ClassDocs[] {
    const file = route.source?.file;
    if (!file) return [];
    if (this.#table) return Object.hasOwn(this.#table, file) ? this.#table[file] : [];
    if (!SOURCE.test(file)) return [];
    let classes = this.#files.get(file);
    if (!classes) {
      classes = readFile(file);
      this.#files.set(file, classes);
    }
    return classes;
  }
}

function handlerDoc(docs: MethodDocs): HandlerDoc {
  const { summary, description, deprecated = false, headerNames = {} } = docs;
  return { summary, description, deprecated, headerNames: new Map(Object.entries(headerNames)) };
}

// `source.line` is where the decorator call was compiled to (near the end of the class), not the method's
// line: it only chooses between classes of the same name in one file.
function nearest(route: RouteInfo, classes: readonly ClassDocs[]): ClassDocs | undefined {
  const line = route.source?.line ?? 0;
  const distance = (c: ClassDocs) => (line < c.start ? c.start - line : Math.max(0, line - c.end));
  return classes.reduce<ClassDocs | undefined>((best, c) => (!best || distance(c) < distance(best) ? c : best), undefined);
}

function classNames(ctor: Function): string[] {
  const names: string[] = [];
  for (let c: Function | null = ctor; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) names.push(c.name);
  return names;
}

function readFile(file: string): ClassDocs[] {
  const ts = loadTypeScript();
  if (!ts) return [];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return parseDocComments(file, text);
}

/**
 * The doc comments of every class declared in a source text (TypeScript or JavaScript), with the lines
 * each class spans. Needs the `typescript` package: `trellis build` calls it to precompute a
 * {@link DocCommentTable}.
 *
 * @example
 * ```ts
 * parseDocComments('routers/tasks.ts', readFileSync('routers/tasks.ts', 'utf8'));
 * // [{ name: 'TaskRouter', start: 8, end: 30, methods: { list: { summary: 'All tasks', deprecated: false, ... } } }]
 * ```
 */
export function parseDocComments(file: string, text: string): ClassDocs[] {
  const ts = require('typescript') as typeof TS;
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const line = (pos: number) => sourceFile.getLineAndCharacterOfPosition(pos).line + 1;
  return classNodes(ts, sourceFile).map(({ name, node }) => {
    const methods: Record<string, MethodDocs> = {};
    for (const member of node.members) {
      if (!ts.isMethodDeclaration(member) || !(ts.isIdentifier(member.name) || ts.isStringLiteral(member.name))) continue;
      methods[member.name.text] = methodDocs(ts, member);
    }
    const doc = lastJSDoc(ts, node);
    const description = doc && ts.getTextOfJSDocComment(doc.comment)?.trim();
    return { name, start: line(node.getStart()), end: line(node.end), description: description || undefined, methods };
  });
}

function methodDocs(ts: typeof TS, method: TS.MethodDeclaration): MethodDocs {
  const headerNames: Record<string, string> = {};
  for (const parameter of method.parameters) {
    for (const decorator of ts.getDecorators(parameter) ?? []) {
      const call = decorator.expression;
      if (!ts.isCallExpression(call) || !ts.isIdentifier(call.expression) || call.expression.text !== 'Header') continue;
      const name = call.arguments[0];
      if (name && ts.isStringLiteralLike(name)) headerNames[name.text.toLowerCase()] = name.text;
    }
  }
  const doc = lastJSDoc(ts, method);
  const deprecated = doc?.tags?.some((tag) => tag.tagName.text === 'deprecated') ?? false;
  const lines = (doc ? ts.getTextOfJSDocComment(doc.comment) ?? '' : '').trim().split(/\r?\n/);
  const summary = lines[0].trim();
  const description = lines.slice(1).join('\n').trim();
  // Only what is there: a build's manifest holds one entry per method.
  const docs: MethodDocs = {};
  if (summary) docs.summary = summary;
  if (description) docs.description = description;
  if (deprecated) docs.deprecated = true;
  if (Object.keys(headerNames).length) docs.headerNames = headerNames;
  return docs;
}

function lastJSDoc(ts: typeof TS, node: TS.Node): TS.JSDoc | undefined {
  return ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc).at(-1);
}
