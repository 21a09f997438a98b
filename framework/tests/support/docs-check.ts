import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** A fenced code block of a markdown file; `line` is the 1-based line of its first code line. */
export interface CodeBlock {
  file: string;
  line: number;
  info: string;
  code: string;
}

/** A problem found in the docs, at `file:line` (file relative to the checked root). */
export interface DocProblem {
  file: string;
  line: number;
  message: string;
}

/** README.md and every .md under docs/, as paths relative to `root`, sorted. */
export function markdownFiles(root: string): string[] {
  const files = existsSync(join(root, 'README.md')) ? ['README.md'] : [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(root, dir)).sort()) {
      const path = join(dir, name);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (name.endsWith('.md')) files.push(path.split(sep).join('/'));
    }
  };
  if (existsSync(join(root, 'docs'))) walk('docs');
  return files;
}

const FENCE = /^( *)(`{3,}|~{3,})\s*([^`]*)$/;

/** Every fenced block of a markdown text, indentation (a block inside a list item) removed. */
export function codeBlocks(file: string, text: string): CodeBlock[] {
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = /^( *)(`{3,}|~{3,})\s*$/.exec(lines[j]);
      if (close && close[2][0] === fence[0] && close[2].length >= fence.length) break;
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart());
    }
    blocks.push({ file, line: i + 2, info: info.trim(), code: body.join('\n') });
    i = j;
  }
  return blocks;
}

/**
 * Whether a block is checked as a TypeScript module: ```ts and ```typescript are; ```ts fragment (a piece of a
 * class or a call, shown in context) and every other language are not.
 */
export function isCheckedTypeScript(block: CodeBlock): boolean {
  const [language, ...flags] = block.info.split(/\s+/);
  return (language === 'ts' || language === 'typescript') && !flags.includes('fragment');
}

/**
 * Type-checks each block as a module of its own, in one program with the repository's compiler options (its
 * `paths` map `trellis`, `trellis/param`... to the sources). Top-level `await` is allowed, as in an ES module.
 * A block fenced ```ts file=routers/tasks.ts is that file of a small project made of its page's blocks, so the
 * blocks of one page can import each other (`import { TaskService } from '../services/task_service'`).
 * Returns the errors found in the blocks, at their markdown line.
 */
export function typeCheckBlocks(root: string, blocks: CodeBlock[]): DocProblem[] {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: true,
    declaration: false,
    sourceMap: false,
    rootDir: undefined,
    outDir: undefined,
    module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    noUnusedLocals: false,
    noUnusedParameters: false,
  };
  const virtual = new Map<string, CodeBlock>();
  for (const block of blocks) {
    const page = block.file.replace(/[/.]/g, '_');
    const file = /(?:^|\s)file=(\S+\.ts)(?:\s|$)/.exec(block.info)?.[1];
    virtual.set(resolve(root, '.docs-blocks', page, file ?? `L${block.line}.ts`), block);
  }
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (name) => virtual.has(resolve(name)) || fileExists.call(host, name);
  host.directoryExists = (name) =>
    [...virtual.keys()].some((file) => file.startsWith(resolve(name) + sep)) || ts.sys.directoryExists(name);
  host.readFile = (name) => {
    const block = virtual.get(resolve(name));
    return block ? `${block.code}\nexport {};\n` : readFile.call(host, name);
  };
  host.getSourceFile = (name, language, onError, create) => {
    const block = virtual.get(resolve(name));
    if (!block) return getSourceFile.call(host, name, language, onError, create);
    return ts.createSourceFile(name, `${block.code}\nexport {};\n`, language, true);
  };
  const program = ts.createProgram([...virtual.keys()], options, host);
  const problems: DocProblem[] = [];
  for (const [name, block] of virtual) {
    const source = program.getSourceFile(name);
    if (!source) continue;
    for (const diagnostic of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const at = diagnostic.start === undefined ? 0 : source.getLineAndCharacterOfPosition(diagnostic.start).line;
      problems.push({ file: block.file, line: block.line + at, message: ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ') });
    }
  }
  return problems;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2... */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const block of stripCode(text, false).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(block);
    if (!heading) continue;
    const slug = heading[1]
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

// Fenced blocks and inline code become blank (lines kept), so links shown as code are not followed.
function stripCode(text: string, inline = true): string {
  const lines = text.split('\n');
  let fence: string | undefined;
  return lines
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line);
      if (fence) {
        if (marker && marker[1][0] === fence[0] && marker[1].length >= fence.length) fence = undefined;
        return '';
      }
      if (marker) {
        fence = marker[1];
        return '';
      }
      return inline ? line.replace(/(`+)[^`]*?\1/g, '') : line;
    })
    .join('\n');
}

/**
 * Every relative link (`[text](path)`, `[text](path#anchor)`, `[text](#anchor)`) of the given markdown files that
 * leads to no file, or to no heading of a markdown file. Web addresses are not followed.
 */
export function brokenLinks(root: string, files: string[]): DocProblem[] {
  const problems: DocProblem[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (path: string): Set<string> => {
    let found = anchorsOf.get(path);
    if (!found) anchorsOf.set(path, (found = headingAnchors(readFileSync(path, 'utf8'))));
    return found;
  };
  for (const file of files) {
    const lines = stripCode(readFileSync(join(root, file), 'utf8')).split('\n');
    lines.forEach((text, index) => {
      for (const link of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        const target = link[1];
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const [path, anchor] = target.split('#', 2);
        const resolved = path === '' ? join(root, file) : resolve(dirname(join(root, file)), decodeURIComponent(path));
        const at = { file, line: index + 1 };
        if (!existsSync(resolved)) problems.push({ ...at, message: `${target}: ${relative(root, resolved)} does not exist` });
        else if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(anchor.toLowerCase())) {
          problems.push({ ...at, message: `${target}: ${relative(root, resolved) || file} has no heading #${anchor}` });
        }
      }
    });
  }
  return problems;
}

/** One line per problem, `file:line: message`. */
export function formatProblems(problems: DocProblem[]): string {
  return problems.map((p) => `${p.file}:${p.line}: ${p.message}`).join('\n');
}
