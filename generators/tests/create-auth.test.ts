import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { checkAuth, createProject, GeneratorError, resolveExamples } from '../index';
import { blueprintsDir } from '../paths';
import { createFixture, FULL } from '../test-support/create-fixture';
import { listFiles, tempDir } from '../test-support/tree';

const { cwd, request, read } = createFixture();
const SECRET = 'a-fixed-secret-for-the-generator-tests-0123';
const blueprint = (overlay: string, file: string) => readFileSync(join(blueprintsDir, overlay, file), 'utf8');

describe('create --auth jwt: task writes behind bearer tokens', () => {
  it('adds the guard; the tasks router and its test come from project-auth, the rest is the sample', async () => {
    const result = await createProject(request({ auth: 'jwt', jwtSecret: SECRET }));
    assert.deepEqual(listFiles(result.root), [...FULL, 'middleware/require_writer.ts'].sort());
    for (const file of ['routers/tasks.ts', 'middleware/require_writer.ts', 'tests/tasks.test.ts']) {
      assert.equal(read(file), blueprint('project-auth', file), file);
    }
    for (const file of ['services/task_service.ts', 'routers/admin.ts', 'middleware/require_token.ts']) {
      assert.equal(read(file), blueprint('project', file), file);
    }
  });

  it('on a database too: the tasks test from project-db-auth, the services from project-db, one tasks router', async () => {
    const result = await createProject(request({ auth: 'jwt', jwtSecret: SECRET, db: true }));
    assert.ok(listFiles(result.root).includes('db/schema.ts'));
    assert.ok(listFiles(result.root).includes('middleware/require_writer.ts'));
    assert.equal(read('tests/tasks.test.ts'), blueprint('project-db-auth', 'tests/tasks.test.ts'));
    assert.equal(read('routers/tasks.ts'), blueprint('project-auth', 'routers/tasks.ts'));
    assert.equal(read('services/task_service.ts'), blueprint('project-db', 'services/task_service.ts'));
    assert.match(read('config.yaml'), /\n {2}pool: 10 {17}# connections per process \(each worker has its own pool\)\nauth:\n/);
  });

  it('writes the auth: section of config.yaml, reading JWT_SECRET from the environment', async () => {
    await createProject(request({ auth: 'jwt', jwtSecret: SECRET }));
    assert.match(
      read('config.yaml'),
      /\n {2}- timing\nauth:\n {2}# From the environment \(\.env in development\): the HS256 key of the bearer tokens task writes need\n {2}# \(middleware\/require_writer\.ts\); `npx trellis token --scope tasks:write` mints one\.\n {2}secret: \$\{JWT_SECRET\}\nadmin:\n/,
    );
    assert.deepEqual(parseYaml(read('config.yaml')).auth, { secret: '${JWT_SECRET}' });
  });

  it('writes JWT_SECRET into .env and an empty one, explained, into .env.example', async () => {
    await createProject(request({ auth: 'jwt', jwtSecret: SECRET }));
    assert.equal(
      read('.env'),
      `# Settings for this machine, read by \`trellis run\` (npm run dev). Not committed: .gitignore lists it.
# In production set them in the environment instead; .env.example lists them.
ADMIN_TOKEN=secret-token
# Signs and verifies the bearer tokens of task writes (made up by \`trellis create\`; keep it secret).
JWT_SECRET=${SECRET}
# REDIS_URL=redis://localhost:6379
# PORT=8000
`,
    );
    assert.equal(
      read('.env.example'),
      `# The environment variables this app reads. Copy to .env for development (\`cp .env.example .env\`);
# in production set them in the environment. PORT and HOST override server.port and server.host.
ADMIN_TOKEN=change-me
# The HS256 key that signs and verifies the bearer tokens task writes need (config.yaml: auth.secret), at least
# 32 characters: \`openssl rand -base64 32\` makes one. Required: the app does not start without it.
JWT_SECRET=
# The Redis server that carries WebSocket broadcasts between workers and instances, and holds the admin
# rate limit's shared counts (config.yaml: redis.url). Unset or empty: each process alone.
# REDIS_URL=redis://localhost:6379
# PORT=8000
# HOST=localhost
`,
    );
  });

  it('makes up a different JWT_SECRET for each project: 32 random bytes, base64url', async () => {
    await createProject(request({ auth: 'jwt' }));
    await createProject(request({ auth: 'jwt', name: 'other' }));
    const secret = (name: string) => /^JWT_SECRET=(.*)$/m.exec(readFileSync(join(cwd().path, name, '.env'), 'utf8'))![1];
    assert.match(secret('demo'), /^[A-Za-z0-9_-]{43}$/);
    assert.match(secret('other'), /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(secret('demo'), secret('other'));
  });

  it('writes a README that mints a token, sends it with curl and shows the 401 and the 403', async () => {
    await createProject(request({ auth: 'jwt', jwtSecret: SECRET, port: 3000 }));
    const readme = read('README.md');
    const sections = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    assert.deepEqual(sections, ['Install', 'Develop', 'Tokens', 'Test', 'Build', 'Deploy', 'Layout', 'Endpoints', 'Realtime', 'Add to it']);
    for (const text of [
      'TOKEN=$(npx trellis token --scope tasks:write)',
      `curl -X POST -H "Authorization: Bearer $TOKEN" -H 'content-type: application/json' -d '{"title":"Try trellis"}' http://localhost:3000/tasks`,
      '# HTTP/1.1 401 Unauthorized',
      '# WWW-Authenticate: Bearer realm="tasks"',
      '# HTTP/1.1 403 Forbidden',
      '# WWW-Authenticate: Bearer realm="tasks", error="insufficient_scope"',
      'ADMIN_TOKEN=... JWT_SECRET=... PORT=8080 HOST=0.0.0.0 node dist/main.js',
      '| `JWT_SECRET` |',
      "`signToken` from `trellis/auth`",
      'The writes need a bearer token with the scope `tasks:write` (see Tokens).',
    ]) {
      assert.ok(readme.includes(text), text);
    }
    assert.ok(!readme.includes('{{'), 'every placeholder is filled');
  });

  it('names JWT_SECRET on the deploy line without the admin example, and with a database', async () => {
    await createProject(request({ auth: 'jwt', jwtSecret: SECRET, db: true, examples: resolveExamples([]) }));
    assert.ok(read('README.md').includes('\nDATABASE_URL=postgres://... JWT_SECRET=... PORT=8080 HOST=0.0.0.0 node dist/main.js\n'));
    assert.match(read('.env'), /^JWT_SECRET=a-fixed-secret/m);
    assert.ok(!read('.env').includes('ADMIN_TOKEN'));
  });

  it('writes the same files with --auth none as without --auth', async () => {
    const other = tempDir();
    try {
      const plain = await createProject(request());
      const none = await createProject({ ...request({ auth: 'none' }), cwd: other.path });
      assert.deepEqual(listFiles(none.root), listFiles(plain.root));
      for (const file of listFiles(plain.root)) {
        assert.deepEqual(readFileSync(join(none.root, file)), readFileSync(join(plain.root, file)), file);
      }
      assert.ok(!/JWT_SECRET|auth:|trellis token/.test(['config.yaml', '.env', '.env.example', 'README.md'].map(read).join('\n')));
    } finally {
      other.remove();
    }
  });

  it('accepts none and jwt, and refuses any other --auth value naming the choices', () => {
    assert.equal(checkAuth('none'), 'none');
    assert.equal(checkAuth('jwt'), 'jwt');
    for (const value of ['JWT', 'oauth', '']) {
      assert.throws(() => checkAuth(value), (error: GeneratorError) => {
        return error.reason === 'unknown-auth' && error.subject === value && error.detail === 'none, jwt';
      });
    }
  });
});
