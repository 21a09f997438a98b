import assert from 'node:assert/strict';
import fs, { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { createProject, resolveExamples } from '../index';
import { blueprintsDir, frameworkDir, packageDir } from '../paths';
import { createFixture, FULL } from '../test-support/create-fixture';
import { listFiles } from '../test-support/tree';

const { cwd, request, read } = createFixture();

describe('create: the full sample project', () => {
  it('writes every file of the layout, and nothing next to it', async () => {
    const result = await createProject(request());
    assert.equal(result.root, join(cwd().path, 'demo'));
    assert.deepEqual(listFiles(result.root), FULL);
    assert.deepEqual(result.files.map((f) => f.path).sort(), FULL);
    for (const file of result.files) assert.equal(fs.statSync(join(result.root, file.path)).size, file.bytes, file.path);
    assert.deepEqual(readdirSync(cwd().path), ['demo'], 'no staging folder is left behind');
  });

  it('writes config.yaml as the issue shows it, plus the admin token', async () => {
    await createProject(request());
    assert.equal(
      read('config.yaml'),
      `# Read by \`trellis run\` and \`trellis doctor\`. Other sections are yours: code reads them through the
# injected \`Config\`, e.g. \`config.get<string>('section.key')\`.
app: { title: "Demo API", version: 0.1.0, description: "A demo." }
server: { host: localhost, port: 8000 }
static: { dir: static, url: /static }
templates: { dir: templates }
docs: { enabled: true, path: /docs }
middleware: [timing]        # global middleware, by file name in middleware/
admin: { token: "secret-token" }        # routers/admin.ts wants \`Authorization: Bearer <token>\`
`,
    );
  });

  it('writes package.json with trellis scripts and no registry dependency', async () => {
    await createProject(request());
    assert.equal(
      read('package.json'),
      `{
  "name": "demo",
  "version": "0.1.0",
  "private": true,
  "description": "A demo.",
  "scripts": {
    "start": "trellis run .",
    "test": "trellis test .",
    "doctor": "trellis doctor ."
  }
}
`,
    );
  });

  it('writes tsconfig.json with decorator options and paths to this installation', async () => {
    await createProject(request());
    const { compilerOptions, include } = JSON.parse(read('tsconfig.json'));
    assert.equal(compilerOptions.experimentalDecorators, true);
    assert.equal(compilerOptions.emitDecoratorMetadata, true);
    assert.deepEqual(compilerOptions.paths, {
      trellis: [join(frameworkDir, 'index.ts')],
      'trellis/*': [join(frameworkDir, '*')],
      'class-validator': [packageDir('class-validator')],
      'class-transformer': [packageDir('class-transformer')],
    });
    assert.ok(existsSync(compilerOptions.paths.trellis[0]));
    assert.ok(existsSync(join(compilerOptions.typeRoots[0], 'node')));
    assert.deepEqual(include, ['routers', 'services', 'middleware', 'tests']);
  });

  it('renames _gitignore and copies binary files byte for byte', async () => {
    await createProject(request());
    assert.equal(read('.gitignore'), 'node_modules/\ndist/\n*.log\n.DS_Store\n');
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

  it('writes a README on running, testing, adding, every endpoint and the editor paths', async () => {
    await createProject(request());
    const readme = read('README.md');
    assert.match(readme, /^# Demo API\n\nA demo\.\n/);
    for (const text of ['trellis run .', 'trellis test .', 'trellis doctor .', 'trellis add router orders', 'GET /products/search', 'POST /upload/file', 'GET /admin/stats', frameworkDir]) {
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
      '.gitignore',
      'README.md',
      'config.yaml',
      'favicon.ico',
      'middleware/timing.ts',
      'package.json',
      'routers/tasks.ts',
      'services/task_service.ts',
      'static/style.css',
      'templates/index.html',
      'tests/tasks.test.ts',
      'tsconfig.json',
    ]);
    assert.ok(!read('config.yaml').includes('admin'));
    assert.ok(!read('README.md').includes('/products'));
    assert.ok(read('README.md').includes('GET /tasks'));
  });

  it('renders the chosen examples only', async () => {
    await createProject(request({ examples: resolveExamples(['upload']), port: 3000 }));
    const routers = listFiles(join(cwd().path, 'demo')).filter((f) => f.startsWith('routers/'));
    assert.deepEqual(routers, ['routers/tasks.ts', 'routers/upload.ts']);
    assert.match(read('config.yaml'), /^server: \{ host: localhost, port: 3000 \}$/m);
    assert.ok(read('README.md').includes('http://localhost:3000'));
  });
});
