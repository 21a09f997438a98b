import assert from 'node:assert/strict';
import fs, { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { createProject, resolveExamples } from '../index';
import { blueprintsDir, packageRoot } from '../paths';
import { createFixture, FULL } from '../test-support/create-fixture';
import { listFiles } from '../test-support/tree';

const { cwd, request, read } = createFixture();
const own = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
const ownRange = (name: string): string => own.dependencies?.[name] ?? own.devDependencies?.[name];

describe('create: the full sample project', () => {
  it('writes every file of the layout, and nothing next to it', async () => {
    const result = await createProject(request());
    assert.equal(result.root, join(cwd().path, 'demo'));
    assert.deepEqual(listFiles(result.root), FULL);
    assert.deepEqual(result.files.map((f) => f.path).sort(), FULL);
    for (const file of result.files) assert.equal(fs.statSync(join(result.root, file.path)).size, file.bytes, file.path);
    assert.deepEqual(readdirSync(cwd().path), ['demo'], 'no staging folder is left behind');
  });

  it('writes config.yaml in block style, the admin token read from the environment', async () => {
    await createProject(request());
    assert.equal(
      read('config.yaml'),
      `# Read by \`trellis run\` and \`trellis doctor\`. Other sections are yours: code reads them through the
# injected \`Config\`, e.g. \`config.section('mail', MailSettings)\`, checked against a class-validator class.
app:
  title: "Demo API"
  version: 0.1.0
  description: "A demo."
server:
  host: localhost
  port: 8000
static:
  dir: static
  url: /static
templates:
  dir: templates
docs:
  enabled: true
  path: /docs
cors:              # the browser apps on other origins that may call the API
  origins:
    - http://localhost:5173   # a front end's dev server (Vite's); add the production origin
compression:
  threshold: 1024  # bytes: bigger answers go out gzip- or brotli-encoded, as the client accepts
redis:
  # Carries WebSocket broadcasts (routers/task_feed.ts) between workers and instances, and holds
  # the admin routes' rate-limit counts (@RateLimit in routers/admin.ts) that all of them share. Empty: each
  # process broadcasts to its own clients and counts on its own.
  url: \${REDIS_URL:-}
middleware:        # global middleware, by file name in middleware/
  - timing
admin:
  # From the environment (.env in development); routers/admin.ts wants \`Authorization: Bearer <token>\`.
  token: \${ADMIN_TOKEN}
`,
    );
  });

  it('writes package.json: trellis and the libraries the code imports, the command-line tool and the dev tools, the scripts', async () => {
    await createProject(request());
    assert.equal(
      read('package.json'),
      `{
  "name": "demo",
  "version": "0.1.0",
  "private": true,
  "description": "A demo.",
  "engines": {
    "node": "${own.engines.node}"
  },
  "scripts": {
    "dev": "trellis run . --reload",
    "build": "trellis build .",
    "start": "node dist/main.js",
    "test": "trellis test .",
    "typecheck": "tsc --noEmit",
    "doctor": "trellis doctor ."
  },
  "dependencies": {
    "class-transformer": "${ownRange('class-transformer')}",
    "class-validator": "${ownRange('class-validator')}",
    "reflect-metadata": "${ownRange('reflect-metadata')}",
    "trellis": "^${own.version}"
  },
  "devDependencies": {
    "@swc/core": "${ownRange('@swc/core')}",
    "@types/node": "^20",
    "esbuild": "${ownRange('esbuild')}",
    "trellis-cli": "^${own.version}",
    "ts-json-schema-generator": "2.4.0",
    "typescript": "~5.9.3"
  }
}
`,
    );
    // The ranges a user gets: class-validator 0.15 changed its API, trellis is tested with 0.14.
    assert.match(ownRange('class-validator'), /^[~^]?0\.14\.\d+$/);
    assert.match(ownRange('class-transformer'), /^[~^]?0\.5\.1$/);
    assert.match(ownRange('reflect-metadata'), /^[~^]?0\.2\.\d+$/);
    assert.equal(own.version, '0.1.0-pre.1');
  });

  it('writes tsconfig.json with decorator options, the node types and no path of this machine', async () => {
    await createProject(request());
    assert.equal(
      read('tsconfig.json'),
      `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "node16",
    "moduleResolution": "node16",
    "lib": ["ES2022"],
    "types": ["node"],
    "strict": true,
    "experimentalDecorators": true,
    "emitDecoratorMetadata": true,
    "useDefineForClassFields": false,
    "esModuleInterop": true,
    "skipLibCheck": true,
    "noEmit": true
  },
  "include": ["routers", "services", "middleware", "tests"]
}
`,
    );
  });

  it('writes .env with the admin token and .env.example for the repository; .gitignore keeps .env out', async () => {
    await createProject(request());
    assert.equal(
      read('.env'),
      `# Settings for this machine, read by \`trellis run\` (npm run dev). Not committed: .gitignore lists it.
# In production set them in the environment instead; .env.example lists them.
ADMIN_TOKEN=secret-token
# REDIS_URL=redis://localhost:6379
# PORT=8000
`,
    );
    assert.equal(
      read('.env.example'),
      `# The environment variables this app reads. Copy to .env for development (\`cp .env.example .env\`);
# in production set them in the environment. PORT and HOST override server.port and server.host.
ADMIN_TOKEN=change-me
# The Redis server that carries WebSocket broadcasts between workers and instances, and holds the admin
# rate limit's shared counts (config.yaml: redis.url). Unset or empty: each process alone.
# REDIS_URL=redis://localhost:6379
# PORT=8000
# HOST=localhost
`,
    );
    assert.equal(read('.gitignore'), 'node_modules/\ndist/\n*.log\n.DS_Store\n.env\n');
  });

  it('makes up a different admin token for each project', async () => {
    await createProject(request({ adminToken: undefined }));
    await createProject(request({ adminToken: undefined, name: 'other' }));
    const token = (name: string) => /^ADMIN_TOKEN=(.*)$/m.exec(readFileSync(join(cwd().path, name, '.env'), 'utf8'))![1];
    assert.match(token('demo'), /^[A-Za-z0-9_-]{24}$/);
    assert.match(token('other'), /^[A-Za-z0-9_-]{24}$/);
    assert.notEqual(token('demo'), token('other'));
  });

  it('renames _gitignore and copies binary files byte for byte', async () => {
    await createProject(request());
    assert.equal(read('.gitignore'), 'node_modules/\ndist/\n*.log\n.DS_Store\n.env\n');
    const icon = readFileSync(join(cwd().path, 'demo', 'favicon.ico'));
    assert.deepEqual(icon, readFileSync(join(blueprintsDir, 'project', 'favicon.ico')));
    // ICONDIR: reserved 0, type 1 (icon), one image of 16x16 at 32 bpp whose bytes end the file.
    assert.deepEqual([icon.readUInt16LE(0), icon.readUInt16LE(2), icon.readUInt16LE(4)], [0, 1, 1]);
    assert.deepEqual([icon[6], icon[7], icon.readUInt16LE(12)], [16, 16, 32]);
    const [size, offset] = [icon.readUInt32LE(14), icon.readUInt32LE(18)];
    assert.equal(offset + size, icon.length);
    assert.deepEqual([icon.readUInt32LE(offset), icon.readInt32LE(offset + 4), icon.readInt32LE(offset + 8)], [40, 16, 32]);
    // Copied files keep their bytes: no template syntax was interpreted in the nunjucks page.
    assert.equal(read('templates/index.html'), readFileSync(join(blueprintsDir, 'project', 'templates', 'index.html'), 'utf8'));
    assert.equal(read('routers/tasks.ts'), readFileSync(join(blueprintsDir, 'project', 'routers', 'tasks.ts'), 'utf8'));
  });

  it('writes a README on installing, developing, testing, building, deploying, every endpoint', async () => {
    await createProject(request());
    const readme = read('README.md');
    assert.match(readme, /^# Demo API\n\nA demo\.\n/);
    const sections = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    assert.deepEqual(sections, ['Install', 'Develop', 'Test', 'Build', 'Deploy', 'Layout', 'Endpoints', 'Realtime', 'Add to it']);
    for (const text of [
      'npm install',
      'npm run dev',
      'npm test',
      'npm run typecheck',
      'npm run doctor',
      'npm run build',
      'npm start',
      'npm ci --omit=dev',
      'ADMIN_TOKEN=... PORT=8080 HOST=0.0.0.0 node dist/main.js',
      '| `ADMIN_TOKEN` |',
      '| `PORT` |',
      '| `HOST` |',
      'npx trellis add router orders',
      'GET /products/search',
      'POST /upload/file',
      'GET /admin/stats',
      'http://localhost:8000/docs/',
      'ws://localhost:8000/ws/tasks',
      'REDIS_URL=redis://localhost:6379 npx trellis run . --workers 4',
      '| `REDIS_URL` |',
    ]) {
      assert.ok(readme.includes(text), text);
    }
    assert.ok(!readme.includes('{{'), 'every placeholder is filled');
  });

  it('quotes titles and descriptions so YAML and JSON read them back unchanged', async () => {
    const title = 'Shop: "best" #1 & <co>';
    const description = "It's {{not}} a template; \\ backslash";
    await createProject(request({ title, description }));
    const config = parseYaml(read('config.yaml'));
    assert.equal(config.app.title, title);
    assert.equal(config.app.description, description);
    assert.equal(config.app.version, '0.1.0');
    assert.equal(JSON.parse(read('package.json')).description, description);
    assert.ok(read('README.md').startsWith(`# ${title}\n\n${description}\n`));
  });
});

describe('create --minimal and example choices', () => {
  it('keeps only tasks (and the layout) with no examples', async () => {
    await createProject(request({ examples: resolveExamples([]) }));
    assert.deepEqual(listFiles(join(cwd().path, 'demo')), [
      '.env',
      '.env.example',
      '.gitignore',
      'README.md',
      'config.yaml',
      'favicon.ico',
      'middleware/timing.ts',
      'package.json',
      'routers/task_feed.ts',
      'routers/tasks.ts',
      'services/task_events.ts',
      'services/task_service.ts',
      'static/style.css',
      'templates/index.html',
      'tests/task_feed.test.ts',
      'tests/tasks.test.ts',
      'tsconfig.json',
    ]);
    assert.ok(!read('config.yaml').includes('admin'));
    assert.ok(!read('README.md').includes('/products'));
    for (const file of ['.env', '.env.example', 'README.md']) assert.ok(!read(file).includes('ADMIN_TOKEN'), file);
    assert.match(read('.env.example'), /^# PORT=8000$/m);
    assert.ok(read('README.md').includes('GET /tasks'));
  });

  it('renders the chosen examples only', async () => {
    await createProject(request({ examples: resolveExamples(['upload']), port: 3000 }));
    const routers = listFiles(join(cwd().path, 'demo')).filter((f) => f.startsWith('routers/'));
    assert.deepEqual(routers, ['routers/task_feed.ts', 'routers/tasks.ts', 'routers/upload.ts']);
    assert.match(read('config.yaml'), /^server:\n  host: localhost\n  port: 3000\n/m);
    assert.ok(read('README.md').includes('http://localhost:3000'));
    assert.match(read('.env'), /^# PORT=3000$/m);
  });
});
