import { GeneratorError } from './generator-error';

/** The example routers of the sample project; `tasks` is always there (`--minimal` keeps only it). */
export const EXAMPLES = {
  tasks: {
    summary: 'tasks: CRUD in memory (always included)',
    files: [
      'routers/tasks.ts',
      'routers/task_feed.ts',
      'services/task_service.ts',
      'services/task_events.ts',
      'tests/tasks.test.ts',
      'tests/task_feed.test.ts',
      'migrations/0001_create_tasks.ts',
    ],
    needs: [],
  },
  products: {
    summary: 'products: query parameters, validation, batch bodies',
    files: ['routers/products.ts', 'services/product_service.ts', 'migrations/0002_create_products.ts'],
    needs: [],
  },
  users: {
    summary: 'users and posts: literal vs parametrised paths, base-path parameters',
    files: ['routers/users.ts', 'routers/posts.ts', 'services/user_service.ts', 'migrations/0003_create_users.ts'],
    needs: [],
  },
  upload: { summary: 'upload: multipart file upload', files: ['routers/upload.ts'], needs: [] },
  pages: { summary: 'pages: an HTML page from templates/ and a redirect', files: ['routers/pages.ts'], needs: [] },
  admin: {
    summary: 'admin: router-scoped token middleware, a header parameter',
    files: ['routers/admin.ts', 'middleware/require_token.ts'],
    needs: ['products', 'users'],
  },
} as const satisfies Record<string, { summary: string; files: readonly string[]; needs: readonly string[] }>;

export type ExampleName = keyof typeof EXAMPLES;

export const EXAMPLE_NAMES = Object.keys(EXAMPLES) as ExampleName[];

/** Every example but the always-present `tasks`: what the wizard offers. */
export const OPTIONAL_EXAMPLES = EXAMPLE_NAMES.filter((name) => name !== 'tasks');

/**
 * The examples to render: the chosen ones, `tasks`, and what they need (admin counts products and users),
 * in catalogue order. Throws `GeneratorError('unknown-example')` for a name not in the catalogue.
 */
export function resolveExamples(chosen: readonly string[]): ExampleName[] {
  const wanted = new Set<ExampleName>(['tasks']);
  const visit = (name: string) => {
    if (!(name in EXAMPLES)) throw new GeneratorError('unknown-example', name, EXAMPLE_NAMES.join(', '));
    const example = name as ExampleName;
    if (wanted.has(example) && example !== 'tasks') return;
    wanted.add(example);
    for (const need of EXAMPLES[example].needs) visit(need);
  };
  for (const name of chosen) visit(name);
  return EXAMPLE_NAMES.filter((name) => wanted.has(name));
}

/** Whether a blueprint file (path relative to the blueprint) belongs to an example that was not chosen. */
export function isExcluded(file: string, included: readonly ExampleName[]): boolean {
  return EXAMPLE_NAMES.some(
    (name) => !included.includes(name) && (EXAMPLES[name].files as readonly string[]).includes(file),
  );
}
