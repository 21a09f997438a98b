import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { createProject, resolveExamples } from '../index';
import { blueprintsDir, packageRoot } from '../paths';
import { createFixture, FULL } from '../test-support/create-fixture';
import { listFiles } from '../test-support/tree';

const { request, read } = createFixture();
const own = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));

describe('create --db: the sample on a database', () => {
  it('writes the sample with db/schema.ts, the migrations and the schema test; the services come from project-db', async () => {
    const result = await createProject(request({ db: true }));
    const added = ['db/schema.ts', 'migrations/0001_create_tasks.ts', 'migrations/0002_create_products.ts', 'migrations/0003_create_users.ts', 'tests/schema.test.ts'];
    assert.deepEqual(listFiles(result.root), [...FULL, ...added].sort());
    for (const file of ['services/task_service.ts', 'services/product_service.ts', 'services/user_service.ts', 'tests/tasks.test.ts', 'migrations/0001_create_tasks.ts']) {
      assert.equal(read(file), readFileSync(join(blueprintsDir, 'project-db', file), 'utf8'), file);
    }
    // The routers are the in-memory sample's: they await the service either way.
    for (const file of ['routers/tasks.ts', 'routers/products.ts', 'routers/users.ts', 'routers/admin.ts']) {
      assert.equal(read(file), readFileSync(join(blueprintsDir, 'project', file), 'utf8'), file);
    }
  });

  it('adds kysely, pg and PGlite at trellis\'s peer ranges, @types/pg, and the db:migrate script', async () => {
    await createProject(request({ db: true }));
    const pkg = JSON.parse(read('package.json'));
    assert.deepEqual(pkg.dependencies, {
      '@electric-sql/pglite': own.peerDependencies['@electric-sql/pglite'],
      'class-transformer': own.dependencies['class-transformer'],
      'class-validator': own.dependencies['class-validator'],
      kysely: own.peerDependencies.kysely,
      pg: own.peerDependencies.pg,
      'reflect-metadata': own.dependencies['reflect-metadata'],
      trellis: `^${own.version}`,
    });
    assert.deepEqual(Object.keys(pkg.dependencies), Object.keys(pkg.dependencies).sort(), 'sorted as npm writes them');
    assert.equal(pkg.devDependencies['@types/pg'], own.devDependencies['@types/pg']);
    assert.equal(pkg.scripts['db:migrate'], 'trellis db migrate .');
    assert.deepEqual(Object.keys(pkg.scripts), ['dev', 'build', 'start', 'test', 'typecheck', 'doctor', 'db:migrate']);
  });

  it('writes the database: section of config.yaml, DATABASE_URL in .env.example, data/ in .gitignore, db and migrations in tsconfig.json', async () => {
    await createProject(request({ db: true }));
    assert.match(
      read('config.yaml'),
      /\nmiddleware: {8}# global middleware, by file name in middleware\/\n {2}- timing\ndatabase:\n {2}url: \$\{DATABASE_URL:-\} {3}# empty: the embedded PGlite in data\/db \(development\); postgres:\/\/\.\.\. in production\n {2}pool: 10 {17}# connections per process \(each worker has its own pool\)\nadmin:\n/,
    );
    assert.deepEqual(parseYaml(read('config.yaml')).database, { url: '${DATABASE_URL:-}', pool: 10 });
    assert.match(read('.env.example'), /^# DATABASE_URL=postgres:\/\/user:password@localhost:5432\/demo$/m);
    assert.equal(read('.gitignore'), 'node_modules/\ndist/\n*.log\n.DS_Store\n.env\n# The embedded database of development (config.yaml: database.url empty).\ndata/\n');
    assert.deepEqual(JSON.parse(read('tsconfig.json')).include, ['routers', 'services', 'middleware', 'tests', 'db', 'migrations']);
  });

  it('writes a README on the database: where it is, migrating, testing, deploying', async () => {
    await createProject(request({ db: true }));
    const readme = read('README.md');
    const sections = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    assert.deepEqual(sections, ['Install', 'Develop', 'Database', 'Test', 'Build', 'Deploy', 'Layout', 'Endpoints', 'Realtime', 'Add to it']);
    for (const text of [
      'npm run db:migrate',
      'DATABASE_URL=postgres://... node dist/main.js --migrate',
      'DATABASE_URL=postgres://... ADMIN_TOKEN=... PORT=8080 HOST=0.0.0.0 node dist/main.js',
      '| `DATABASE_URL` |',
      '| `db/schema.ts` |',
      '| `migrations/` |',
      "testDatabase({ migrations: 'migrations' })",
      'a to-do list in the `tasks` table',
      'npx trellis add resource notes',
    ]) {
      assert.ok(readme.includes(text), text);
    }
    assert.ok(!readme.includes('{{'), 'every placeholder is filled');
  });

  it('keeps to the chosen examples: --minimal has the tasks table alone', async () => {
    const result = await createProject(request({ db: true, examples: resolveExamples([]) }));
    const files = listFiles(result.root);
    assert.deepEqual(files.filter((file) => /^(db|migrations|services)\//.test(file)), ['db/schema.ts', 'migrations/0001_create_tasks.ts', 'services/task_events.ts', 'services/task_service.ts']);
    const schema = read('db/schema.ts');
    assert.match(schema, /^export interface Tables \{\n {2}tasks: TaskTable;\n\}$/m);
    assert.ok(!/Product|User/.test(schema), schema);
  });

  it('leaves a project without --db as it was: no database file, section, dependency or script', async () => {
    const result = await createProject(request({ db: false }));
    assert.deepEqual(listFiles(result.root), FULL);
    const pkg = JSON.parse(read('package.json'));
    for (const name of ['kysely', 'pg', '@electric-sql/pglite']) assert.equal(pkg.dependencies[name], undefined, name);
    assert.equal(pkg.devDependencies['@types/pg'], undefined);
    assert.equal(pkg.scripts['db:migrate'], undefined);
    for (const file of ['config.yaml', '.env.example', '.gitignore', 'README.md']) assert.ok(!/database|DATABASE_URL|data\//.test(read(file)), file);
  });
});
