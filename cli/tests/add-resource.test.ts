import assert from 'node:assert/strict';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { runAddResource } from '../commands/add-action';
import { messages } from '../messages';
import { runCli } from '../../generators/test-support/cli-process';
import { fakeTerminal, scriptedPrompts } from '../../generators/test-support/fake-terminal';
import { tempDir, treeHash } from '../../generators/test-support/tree';

let cwd: ReturnType<typeof tempDir>;
let project: string;
beforeEach(() => {
  cwd = tempDir();
  project = join(cwd.path, 'shop');
  mkdirSync(project);
});
afterEach(() => cwd.remove());

const size = (file: string) => statSync(join(project, file)).size;

describe('trellis add resource', () => {
  it('adds an in-memory resource and says what it serves', async () => {
    writeFileSync(join(project, 'config.yaml'), 'app: { title: Shop }\n');
    const { code, stdout, stderr } = await runCli(['add', 'resource', 'notes'], project);
    assert.equal(stderr, '');
    assert.equal(code, 0);
    assert.equal(
      stdout,
      `  CREATE routers/notes.ts (${size('routers/notes.ts')} bytes)\n` +
        `  CREATE services/notes_service.ts (${size('services/notes_service.ts')} bytes)\n` +
        `  CREATE tests/notes.test.ts (${size('tests/notes.test.ts')} bytes)\n` +
        'NotesRouter serves GET/POST /notes and GET/PUT/DELETE /notes/{note_id} from the next start of `trellis run` (kept in memory: `trellis create --db` makes a project on a database).\n',
    );
  });

  it('adds a resource on the database of the project --dir names: its migration, db/schema.ts updated', async () => {
    writeFileSync(join(project, 'config.yaml'), 'database:\n  url: ${DATABASE_URL:-}\n');
    mkdirSync(join(project, 'db'));
    writeFileSync(join(project, 'db', 'schema.ts'), "import type { Generated } from 'kysely';\n\nexport interface Tables {\n}\n");
    const { code, stdout } = await runCli(['add', 'resource', 'notes', '--dir', 'shop'], cwd.path);
    assert.equal(code, 0);
    assert.equal(
      stdout,
      `  CREATE shop/routers/notes.ts (${size('routers/notes.ts')} bytes)\n` +
        `  CREATE shop/services/notes_service.ts (${size('services/notes_service.ts')} bytes)\n` +
        `  CREATE shop/tests/notes.test.ts (${size('tests/notes.test.ts')} bytes)\n` +
        `  CREATE shop/migrations/0001_create_notes.ts (${size('migrations/0001_create_notes.ts')} bytes)\n` +
        `  UPDATE shop/db/schema.ts (${size('db/schema.ts')} bytes)\n` +
        'NotesRouter serves GET/POST /notes and GET/PUT/DELETE /notes/{note_id} from the next start of `trellis run`, which applies the migration (`npm run db:migrate` elsewhere).\n',
    );
  });

  it('lists the files with --dry-run and writes nothing', async () => {
    writeFileSync(join(project, 'config.yaml'), '');
    const before = treeHash(cwd.path);
    const { code, stdout } = await runCli(['add', 'resource', 'notes', '--dry-run'], project);
    assert.equal(code, 0);
    assert.match(stdout, /^ {2}CREATE routers\/notes\.ts \(\d+ bytes\)\n {2}CREATE services\/notes_service\.ts \(\d+ bytes\)\n {2}CREATE tests\/notes\.test\.ts \(\d+ bytes\)\nDry run: nothing was written\.\n$/);
    assert.equal(treeHash(cwd.path), before);
  });
});

describe('trellis add resource on a terminal', () => {
  it('asks for the name when it is left out, checking it as the generator does', async () => {
    writeFileSync(join(project, 'config.yaml'), '');
    const prompts = scriptedPrompts([
      (config: any) => {
        assert.equal(config.validate('2fast'), 'Invalid name "2fast": use letters, digits, "-" and "_", starting with a letter');
        assert.equal(config.validate('paths'), 'Invalid name "paths": a record named Path would hide an import of the router');
        assert.equal(config.validate('notes'), true);
        return 'notes';
      },
    ]);
    const terminal = fakeTerminal(project, prompts);
    await runAddResource(undefined, { dir: '.' }, terminal);
    assert.deepEqual(prompts.asked, [`input: ${messages.add.ask.name('resource')}`]);
    assert.equal(terminal.lines[0], `  CREATE routers/notes.ts (${size('routers/notes.ts')} bytes)`);
  });

  it('asks nothing with --yes, and says the name is missing', async () => {
    writeFileSync(join(project, 'config.yaml'), '');
    const prompts = scriptedPrompts([]);
    await assert.rejects(runAddResource(undefined, { dir: '.', yes: true }, fakeTerminal(project, prompts)), { message: 'Missing the resource name: trellis add resource <name>' });
    assert.deepEqual(prompts.asked, []);
  });
});

describe('trellis add resource: bad input is one line on stderr, exit 1, nothing written', () => {
  const cases: Array<[string[], string]> = [
    [['add', 'resource', 'existing'], 'routers/existing.ts already exists; nothing was written'],
    [['add', 'resource', 'my-notes!'], 'Invalid name "my-notes!": use letters, digits, "-" and "_", starting with a letter'],
    [['add', 'resource', '2fast'], 'Invalid name "2fast": use letters, digits, "-" and "_", starting with a letter'],
    [['add', 'resource'], 'Missing the resource name: trellis add resource <name>'],
    [['add', 'resource', 'notes', '--path', '/x'], "unknown option '--path'"],
  ];
  for (const [args, message] of cases) {
    it(JSON.stringify(args.slice(1)), async () => {
      writeFileSync(join(project, 'config.yaml'), '');
      mkdirSync(join(project, 'routers'));
      writeFileSync(join(project, 'routers', 'existing.ts'), '// mine\n');
      const before = treeHash(cwd.path);
      const { code, stdout, stderr } = await runCli(args, project);
      assert.equal(code, 1);
      assert.equal(stdout, '');
      assert.equal(stderr, `trellis: ${message}\n`);
      assert.equal(treeHash(cwd.path), before);
    });
  }
});
