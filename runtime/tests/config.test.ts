import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Config } from '../../framework/index';
import { readConfig } from '../config';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Reads `text` as a project's config.yaml. */
function load(text: string | undefined) {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-config-test-'));
  dirs.push(dir);
  if (text !== undefined) writeFileSync(join(dir, 'config.yaml'), text);
  return readConfig(dir);
}

/** `LINE: message` of every issue. */
const issues = (text: string) => load(text).issues.map((issue) => `${issue.line}: ${issue.message}`);

describe('config.yaml', () => {
  it('takes a feature section written alone as that feature on with its defaults, and etag as true or false', () => {
    const config = load('compression:\ncors:\n  origins: [http://localhost:5173]\netag: true\nproject_flag:\n');
    assert.deepEqual(
      config.issues.map((issue) => `${issue.line}: ${issue.message.split(' (')[0]}`),
      ['5: unknown key project_flag'],
      'a project key written alone is still refused',
    );
    assert.deepEqual(config.values.compression, {});
    assert.deepEqual(config.values.cors, { origins: ['http://localhost:5173'] });
    assert.equal(config.values.etag, true);
  });

  it('reads every framework section and keeps the project sections', () => {
    const config = load(
      [
        'app: { title: Demo API, version: 0.1.0, description: A demo }',
        'server: { host: 127.0.0.1, port: 8080 }',
        'static: { dir: public, url: /assets }',
        'templates: { dir: views }',
        'docs: { enabled: false, path: /api-docs }',
        'health: { enabled: false, ready_path: /ready }',
        'metrics: { enabled: true, path: /internal/metrics }',
        'middleware: [timing, auth/jwt]',
        'admin: { token: s3cret }',
      ].join('\n'),
    );
    assert.deepEqual(config.issues, []);
    assert.deepEqual(config.settings, {
      app: { title: 'Demo API', version: '0.1.0', description: 'A demo' },
      server: { host: '127.0.0.1', port: 8080, body_limit: 1048576, max_object_keys: 1000, max_json_containers: 100000, headers_timeout: 30000, request_timeout: 120000, body_timeout: 30000, send_timeout: 30000, max_connections: 1000, access_log: true, shutdown_delay: 0, request_id_header: false },
      static: { dir: 'public', url: '/assets' },
      templates: { dir: 'views' },
      docs: { enabled: false, path: '/api-docs' },
      health: { enabled: false, path: '/healthz', ready_path: '/ready', check_interval: 1000 },
      metrics: { enabled: true, path: '/internal/metrics' },
      middleware: ['timing', 'auth/jwt'],
    });
    assert.deepEqual(config.values.admin, { token: 's3cret' });
    assert.ok(config.file?.endsWith('config.yaml'));
  });

  it('fills in defaults for what the file leaves out, and for a project without config.yaml', () => {
    const defaults = {
      app: { title: 'trellis API', version: '0.1.0', description: undefined },
      server: { host: 'localhost', port: 8000, body_limit: 1048576, max_object_keys: 1000, max_json_containers: 100000, headers_timeout: 30000, request_timeout: 120000, body_timeout: 30000, send_timeout: 30000, max_connections: 1000, access_log: true, shutdown_delay: 0, request_id_header: false },
      static: { dir: 'static', url: '/static' },
      templates: { dir: 'templates' },
      docs: { enabled: true, path: '/docs' },
      health: { enabled: true, path: '/healthz', ready_path: '/readyz', check_interval: 1000 },
      metrics: { enabled: false, path: '/metrics' },
      middleware: [],
    };
    assert.deepEqual(load('').settings, defaults);
    assert.deepEqual(load('server:\napp:\n').settings, defaults);
    const none = load(undefined);
    assert.equal(none.file, undefined);
    assert.deepEqual(none.settings, defaults);
    assert.deepEqual(none.issues, []);
    assert.deepEqual(load('server: { port: 9000 }').settings.server, { host: 'localhost', port: 9000, body_limit: 1048576, max_object_keys: 1000, max_json_containers: 100000, headers_timeout: 30000, request_timeout: 120000, body_timeout: 30000, send_timeout: 30000, max_connections: 1000, access_log: true, shutdown_delay: 0, request_id_header: false });
  });

  it('reports a wrong type at the line of its key, naming the key', () => {
    assert.deepEqual(issues('app:\n  title: Demo\nserver:\n  host: localhost\n  port: eighty\n'), [
      '5: server.port must be an integer from 0 to 65535, got "eighty"',
    ]);
    assert.deepEqual(issues('server: { port: 70000 }'), ['1: server.port must be an integer from 0 to 65535, got 70000']);
    assert.deepEqual(issues('app:\n  version: 1.0\n'), ['2: app.version must be a string, got 1 (put it in quotes)']);
    assert.deepEqual(issues('docs:\n  enabled: yes\n'), ['2: docs.enabled must be true or false, got "yes"']);
    assert.deepEqual(issues('static:\n  url: assets\n'), ['2: static.url must be a URL path starting with /, got "assets"']);
    assert.deepEqual(issues('server:\n  request_id_header: true\n'), ['2: server.request_id_header must be false or a header name (like x-request-id), got true']);
    assert.deepEqual(issues('server:\n  request_id_header: x-request-id\n'), []);
    assert.deepEqual(issues('server: [1, 2]'), ['1: server must be a mapping (host, port, body_limit, max_object_keys, max_json_containers, headers_timeout, request_timeout, body_timeout, send_timeout, max_connections, access_log, shutdown_delay, request_id_header), got a list']);
    assert.deepEqual(issues('- a\n- b\n'), ['1: must be a mapping of sections (app, server, ...), got a list']);
  });

  it('reports unknown keys inside framework sections, with a suggestion when one is close', () => {
    assert.deepEqual(issues('server:\n  port: 8000\n  hots: x\n'), ['3: unknown key server.hots (did you mean host?)']);
    assert.deepEqual(issues('server:\n  timeout: 5\n'), ['2: unknown key server.timeout (expected host, port, body_limit, max_object_keys, max_json_containers, headers_timeout, request_timeout, body_timeout, send_timeout, max_connections, access_log, shutdown_delay, request_id_header)']);
    assert.deepEqual(issues('app:\n  titel: Demo\n'), ['2: unknown key app.titel (did you mean title?)']);
    assert.deepEqual(issues('sever:\n  port: 1\n'), ['1: unknown key sever (did you mean server?)']);
    assert.deepEqual(issues('app: {}\nport: 8000\n'), [
      "2: unknown key port (the framework's sections are app, server, static, templates, docs, health, metrics, database, versioning, middleware; a project's own settings go in a mapping, e.g. admin: { token: ... })",
    ]);
  });

  it('checks the middleware list: names of files in middleware/, each once', () => {
    assert.deepEqual(issues('middleware: timing\n'), ['1: middleware must be a list of file names in middleware/ (like [timing]), got "timing"']);
    assert.deepEqual(issues('middleware:\n  - timing\n  - ../secrets\n  - timing\n'), [
      '3: middleware[1] must be a file name in middleware/ without extension (like timing), got "../secrets"',
      '4: middleware lists timing twice',
    ]);
  });

  it('reports every problem in file order', () => {
    assert.deepEqual(issues('docs: { path: docs }\nserver: { port: -1 }\napp: { title: 5 }\n'), [
      '1: docs.path must be a URL path starting with /, got "docs"',
      '2: server.port must be an integer from 0 to 65535, got -1',
      '3: app.title must be a string, got 5 (put it in quotes)',
    ]);
  });

  it('reports bad YAML at its line', () => {
    assert.deepEqual(issues('app:\n  title: Demo\n server: x\n'), ['3: all mapping items must start at the same column']);
    const [unclosed] = issues('app: { title: Demo\nserver: {}\n');
    assert.match(unclosed, /^2: flow map .* end with a }/i);
    assert.deepEqual(issues('app: {}\napp: {}\n'), ['2: map keys must be unique']);
    assert.deepEqual(issues('app: {}\n---\nserver: {}\n'), ['2: source contains multiple documents; please use YAML.parseAllDocuments()']);
  });

  it('runs no code and builds no objects from tags', () => {
    assert.deepEqual(issues("app:\n  title: !!js/function 'function () { return 1 }'\n"), [
      '2: unsupported tag !!js/function (config.yaml holds plain data only)',
    ]);
    assert.deepEqual(issues('server:\n  port: !!js/undefined ~\n'), ['2: unsupported tag !!js/undefined (config.yaml holds plain data only)']);
    assert.deepEqual(issues('admin:\n  token: !custom x\n'), ['2: unsupported tag !custom (config.yaml holds plain data only)']);
  });

  it('stops an alias bomb before it expands', () => {
    const bomb = [
      'a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
      'e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]',
      'f: [*e, *e, *e, *e, *e, *e, *e, *e, *e]',
    ].join('\n');
    const started = Date.now();
    assert.deepEqual(issues(bomb), ['2: too many aliases (more than 50 expansions)']);
    assert.ok(Date.now() - started < 1000);
    // A few aliases are plain YAML and fine.
    assert.deepEqual(load('shared: &s { token: t }\nadmin: *s\n').values.admin, { token: 't' });
  });

  it('refuses a file larger than 1 MiB', () => {
    assert.deepEqual(issues(`# ${'x'.repeat(1024 * 1024)}\n`), ['1: the file is larger than 1 MiB']);
  });
});

describe('Config', () => {
  const config = new Config({ server: { port: 8000, host: 'localhost' }, admin: { token: 's3cret', extra: null }, list: [1, 2] });

  it('reads values by dotted path', () => {
    assert.equal(config.get('server.port'), 8000);
    assert.equal(config.get<string>('admin.token'), 's3cret');
    assert.deepEqual(config.get('server'), { port: 8000, host: 'localhost' });
    assert.equal(config.get('list.1'), 2);
  });

  it('returns the fallback (or undefined) for a missing path, and null for a null value', () => {
    assert.equal(config.get('admin.missing'), undefined);
    assert.equal(config.get('nope.deeper.still', 'fallback'), 'fallback');
    assert.equal(config.get('server.port.digits', 1), 1);
    assert.equal(config.get('admin.extra', 'fallback'), null);
    assert.equal(config.has('admin.extra'), true);
    assert.equal(config.has('admin.other'), false);
    assert.equal(config.get('toString', 'own keys only'), 'own keys only');
  });

  it('is a frozen copy: neither the caller nor project code can change it', () => {
    const values = { server: { port: 1 } };
    const frozen = new Config(values);
    values.server.port = 2;
    assert.equal(frozen.get('server.port'), 1);
    assert.throws(() => {
      (frozen.get('server') as { port: number }).port = 3;
    }, TypeError);
    assert.deepEqual(frozen.toJSON(), { server: { port: 1 } });
  });

  it('keeps a __proto__ key from a file as a plain key', () => {
    const config = new Config(JSON.parse('{"__proto__": {"admin": true}, "x": 1}'));
    assert.equal(config.get('admin'), undefined);
    assert.deepEqual(config.get('__proto__'), { admin: true });
    assert.equal(Object.getPrototypeOf(config.toJSON()), Object.prototype);
  });
});
