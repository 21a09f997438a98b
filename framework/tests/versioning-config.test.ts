import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Get, router } from '../index';
import { TestClient } from '../testing';
import { createApp } from '../../runtime/assemble';
import { readConfig } from '../../runtime/config';
import type { Discovery } from '../../runtime/discover';

class TasksV1 extends router('/tasks', { version: '1' }) {
  @Get() list() { return 'v1'; }
}
class TasksV2 extends router('/tasks', { version: '2' }) {
  @Get() list() { return 'v2'; }
}

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function project(yaml: string) {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-versioning-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'config.yaml'), yaml);
  return { dir, display: 'demo', config: readConfig(dir, {}) };
}

const discovery: Discovery = { routers: [], models: [], services: [], middleware: [], failures: [], sourceTypes: false };

describe('config.yaml versioning:', () => {
  it('turns on header versioning with its header and default version', async () => {
    const demo = project('app:\n  title: Demo\nversioning:\n  type: header\n  header: X-Version\n  default_version: latest\n');
    assert.deepEqual(demo.config.issues, []);
    const app = createApp(demo, discovery, []).includeRouter(TasksV1).includeRouter(TasksV2);
    const client = new TestClient(app);
    assert.equal((await client.get('/tasks')).json(), 'v2');
    assert.equal((await client.get('/tasks', { headers: { 'x-version': '1' } })).json(), 'v1');
  });

  it('serves URI versions without the section, and with type: uri and a prefix', async () => {
    const plain = createApp(project('app:\n  title: Demo\n'), discovery, []).includeRouter(TasksV1);
    assert.equal((await new TestClient(plain).get('/v1/tasks')).json(), 'v1');
    const prefixed = createApp(project('versioning:\n  type: uri\n  prefix: api\n'), discovery, []).includeRouter(TasksV1);
    assert.equal((await new TestClient(prefixed).get('/api1/tasks')).json(), 'v1');
  });

  it('reports a value that does not fit at its line', () => {
    const demo = project('app:\n  title: Demo\nversioning:\n  type: query\n  header: "x api"\n  prefix: /v\n  default_version: 1\n  typo: 1\n');
    assert.deepEqual(demo.config.issues.map((issue) => [issue.line, issue.message]), [
      [4, 'versioning.type must be uri or header, got "query"'],
      [5, 'versioning.header must be a header name (like x-api-version), got "x api"'],
      [6, 'versioning.prefix must be up to 16 letters or ._~- (like v), got "/v"'],
      [7, 'versioning.default_version must be a string, got 1 (put it in quotes)'],
      [8, 'unknown key versioning.typo (did you mean type?)'],
    ]);
  });

  it('stops at default_version\'s line when the type is uri', () => {
    const demo = project('versioning:\n  type: uri\n  default_version: "1"\n');
    assert.throws(() => createApp(demo, discovery, []), /config\.yaml:3.*versioning\.default_version applies to type: header only/);
  });
});
