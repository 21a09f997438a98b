import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../runtime/tests/support';

// A project that uses the client `trellis client` writes into its client/ folder: an ES module package, strict, with
// openapi-fetch from the repository's node_modules (a consumer's `npm install openapi-fetch`).
const APP = `import { createApiClient, type Schemas } from './client/index.js';

function shout(task: { title: string }): string {
  return task.title.toUpperCase();
}

/** Reads task \`id\` and creates one: what a browser app (no Node types in its tsconfig) or a Node script does. */
export async function useTasks(baseUrl: string, id: number): Promise<string[]> {
  const api = createApiClient(baseUrl);
  const { data } = await api.GET('/tasks/{task_id}', { params: { path: { task_id: id } } });
  if (!data) throw new Error('no task');
  const title: string = data.title;
  const created = await api.POST('/tasks', { body: { title: 'From the client' } });
  const task: Schemas['Task'] | undefined = created.data;
  const missing = await api.GET('/tasks/{task_id}', { params: { path: { task_id: 99 } } });
  return [title, shout(data), \`\${created.response.status} \${task?.id} \${task?.title}\`, \`\${missing.response.status} \${missing.error?.error}\`];
}
`;

const MAIN = `import { useTasks } from './app.js';

console.log(JSON.stringify(await useTasks(process.argv[2], 1)));
`;

const COMPILER = { target: 'ES2022', strict: true, skipLibCheck: true, lib: ['ES2022', 'DOM'] };

/** Writes the consumer into `dir` (its client goes in `dir/client`): a Node config (node16, emits dist/) and a bundler one (Vite's). */
export function writeConsumer(dir: string): void {
  mkdirSync(dir, { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(join(dir, 'app.ts'), APP);
  writeFileSync(join(dir, 'main.ts'), MAIN);
  const node = { ...COMPILER, module: 'node16', moduleResolution: 'node16', types: ['node'], outDir: 'dist' };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: node, files: ['main.ts'] }));
  // Vite's template (tsconfig.app.json): no Node types, module syntax kept as written.
  const bundler = {
    ...COMPILER,
    module: 'esnext',
    moduleResolution: 'bundler',
    types: [],
    noEmit: true,
    allowImportingTsExtensions: true,
    verbatimModuleSyntax: true,
    moduleDetection: 'force',
    erasableSyntaxOnly: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
  };
  writeFileSync(join(dir, 'tsconfig.bundler.json'), JSON.stringify({ compilerOptions: bundler, files: ['app.ts'] }));
}

/** `tsc -p <config>` in `dir`: its exit code and what it printed. */
export function tsc(dir: string, config: string): { code: number | null; output: string } {
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config, '--pretty', 'false'], { cwd: dir, encoding: 'utf8' });
  return { code: result.status, output: result.stdout + result.stderr };
}
