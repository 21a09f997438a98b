// Real projects using trellis as installed from its `npm pack` tarball: a CommonJS and an ESM TypeScript
// project, an Express 5 app mounting a trellis app, response shapes without the sources, and type resolution of
// the entry points under every moduleResolution. Each is compiled with plain tsc (skipLibCheck off) and run with plain node.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { installInto, packedTrellis } from '../support/packed-trellis';
import { compileAll, consumerDependencies, consumerProject, request, root, runNode, startNode, type Running } from './consumer-support';

const rootPackage = require(join(root, 'package.json')) as { devDependencies: Record<string, string> };
const work = mkdtempSync(join(tmpdir(), 'trellis-consumers-'));
// No @types/express here: trellis's public types must not need it.
const plain = join(work, 'plain');
// An existing Express app: express and @types/express are its own dependencies.
const withExpress = join(work, 'with-express');
const running: Running[] = [];
const RESOLUTIONS = ['node10', 'node16', 'nodenext', 'bundler'];
const plainProjects = ['cjs', 'esm', 'users', ...RESOLUTIONS.map((resolution) => `types/tsconfig.${resolution}.json`)];
/** Each project's compiler errors ('' when clean), once both installs are done. */
let compiled: Promise<Map<string, string>>;

before(async () => {
  const tarball = await packedTrellis();
  consumerProject(plain, consumerDependencies(tarball), ['cjs', 'esm', 'users', 'types']);
  consumerProject(
    withExpress,
    { ...consumerDependencies(tarball), express: '^5.1.0', '@types/express': rootPackage.devDependencies['@types/express'] },
    ['express-app'],
  );
  await Promise.all([installInto(plain), installInto(withExpress)]);
  // The premise of the type checks: nothing brought @types/express into the plain projects.
  assert.equal(existsSync(join(plain, 'node_modules', '@types', 'express')), false);
  compiled = Promise.all([compileAll(plainProjects, plain), compileAll(['express-app'], withExpress)]).then(
    ([first, second]) => new Map([...first, ...second]),
  );
});

after(async () => {
  await Promise.all(running.map((app) => app.stop()));
  rmSync(work, { recursive: true, force: true });
});

async function assertCompiles(project: string): Promise<void> {
  assert.equal((await compiled).get(project), '', `tsc errors in ${project}`);
}

async function start(base: string, project: string, main = 'main.js'): Promise<Running> {
  await assertCompiles(project);
  const app = await startNode([join('dist', main)], join(base, project));
  running.push(app);
  return app;
}

describe('projects using the installed package', { concurrency: true }, () => {
  it('a CommonJS TypeScript project: routes, path conversion and a class-validator DTO (422)', async () => {
    const { url } = await start(plain, 'cjs');
    assert.deepEqual(await request(`${url}/tasks/5`), { status: 200, body: { id: 5, module: 'commonjs' } });
    assert.deepEqual(await request(`${url}/tasks`, { json: { title: 'Write docs' } }), { status: 201, body: { title: 'Write docs' } });
    // The DTO's rules live in the project's class-validator; trellis validates with its own import of it:
    // a 422 naming the field means both are one instance.
    const invalid = await request(`${url}/tasks`, { json: { title: '' } });
    assert.equal(invalid.status, 422);
    assert.match(JSON.stringify(invalid.body), /title/);
    // The docs pages' scripts come from the package's own copies (ReDoc's React app is not a dependency).
    for (const asset of ['redoc.standalone.js', 'swagger-ui-bundle.js']) {
      const response = await fetch(`${url}/docs/assets/${asset}`);
      assert.equal(response.status, 200, asset);
      assert.ok((await response.arrayBuffer()).byteLength > 500_000, asset);
    }
  });

  it('an ESM TypeScript project (module nodenext): named imports of trellis, trellis/param and trellis/testing', async () => {
    const app = await start(plain, 'esm');
    assert.match(app.output(), /probe 200 \{"id":7,"module":"esm"\}/);
    assert.deepEqual(await request(`${app.url}/tasks/8`), { status: 200, body: { id: 8, module: 'esm' } });
    assert.equal((await request(`${app.url}/tasks`, { json: { title: 'x'.repeat(51) } })).status, 422);
    assert.equal((await request(`${app.url}/tasks`, { json: { title: 'ok' } })).status, 201);
  });

  it('an Express 5 app mounting a trellis app under /api', async () => {
    const { url } = await start(withExpress, 'express-app');
    assert.deepEqual(await request(`${url}/health`), { status: 200, body: { ok: true, servedBy: 'express' } });
    assert.deepEqual(await request(`${url}/api/tasks/3`), { status: 200, body: { id: 3, servedBy: 'trellis' } });
    assert.equal((await request(`${url}/api/tasks`, { json: { title: 42 } })).status, 422);
    assert.deepEqual(await request(`${url}/api/tasks`, { json: { title: 'mounted' } }), { status: 201, body: { title: 'mounted' } });
    const mounted = await fetch(`${url}/api/tasks/4`);
    assert.equal(mounted.headers.get('x-mounted-at'), '/api');
    const document = (await (await fetch(`${url}/api/docs/openapi.json`)).json()) as { servers: unknown; info: { title: string } };
    assert.deepEqual([document.info.title, document.servers], ['Mounted API', [{ url: '/api' }]]);
    assert.match(await (await fetch(`${url}/api/docs/swagger`)).text(), /src="\/api\/docs\/assets\/swagger-ui-bundle.js"/);
  });

  it('mounted in Express: routes after it are reached, an encoded path does not pass the guard, a rejecting async middleware is a 500', async () => {
    const { url, output } = await start(withExpress, 'express-app');
    assert.deepEqual(await request(`${url}/api/legacy`), { status: 200, body: { servedBy: 'express after trellis' } });
    assert.equal((await request(`${url}/api/admin/secret`)).status, 401);
    const admitted = await fetch(`${url}/api/admin/secret`, { headers: { authorization: 'Bearer admin' } });
    assert.deepEqual([admitted.status, await admitted.json()], [200, { secret: 'trellis admin' }]);
    for (const spelling of ['/api/%61dmin/secret', '/api/%41dmin/secret', '/api/adm%69n/secret', '/api/%2561dmin/secret']) {
      const response = await request(`${url}${spelling}`);
      assert.notEqual(response.status, 200, spelling);
      assert.doesNotMatch(JSON.stringify(response.body), /trellis admin/, spelling);
    }
    for (let i = 0; i < 3; i++) {
      const broken = await request(`${url}/api/tasks/broken/${i}`);
      assert.deepEqual(broken, { status: 500, body: { error: 'Internal Server Error' } });
    }
    assert.deepEqual(await request(`${url}/api/tasks/5`), { status: 200, body: { id: 5, servedBy: 'trellis' } });
    // Logged once per request (the log reaches the pipe after the response: wait for it, bounded).
    const logged = () => output().match(/"message":"the audit store is down".*GET \/tasks\/broken\/\d failed/g)?.length ?? 0;
    for (let waited = 0; logged() < 3 && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    assert.equal(logged(), 3, output());
  });

  it('plain tsc, run without the .ts sources: a return type it cannot read refuses to start; a declared class sends no passwordHash', async () => {
    await assertCompiles('users');
    const refused = await runNode([join('dist', 'refused.js')], join(plain, 'users'));
    assert.equal(refused.code, 1, refused.output);
    assert.match(refused.output, /^TRELLIS_ERR_RESPONSE_UNKNOWN: UserRouter\.create: the response of status 201 is declared as Promise/m);
    assert.doesNotMatch(refused.output, /listening on/);
    const { url } = await start(plain, 'users', 'declared.js');
    assert.deepEqual(await request(`${url}/users`, { json: {} }), { status: 201, body: { id: 1, name: 'Ada' } });
    assert.deepEqual(await request(`${url}/users/2`), { status: 200, body: { id: 2, name: 'Ada' } });
  });

  it('the published .d.ts files name none of the internal keys of framework/symbols.ts, and the consumer types still check', async () => {
    const keys = [...readFileSync(join(root, 'framework', 'symbols.ts'), 'utf8').matchAll(/^export const (\w+) = Symbol\(/gm)].map((match) => match[1]);
    assert.ok(keys.includes('RESPONSE') && keys.includes('MATCHED') && keys.length >= 9, `keys read from symbols.ts: ${keys.join(', ')}`);
    const dist = join(plain, 'node_modules', 'trellis', 'dist');
    const declarations = (readdirSync(dist, { recursive: true }) as string[]).filter((name) => name.endsWith('.d.ts'));
    assert.ok(declarations.includes(join('framework', 'request.d.ts')) && declarations.includes(join('framework', 'response.d.ts')));
    const named = new RegExp(`\\b(${keys.join('|')})\\b|from '[./]*symbols'`);
    const leaks = declarations.filter((name) => named.test(readFileSync(join(dist, name), 'utf8')));
    assert.deepEqual(leaks, []);
    // check.ts reads the body through every accessor and builds responses against these stripped declarations.
    await assertCompiles('types/tsconfig.node16.json');
  });

  for (const resolution of RESOLUTIONS) {
    it(`types of trellis, trellis/param, trellis/testing, trellis/inspect, trellis/express, trellis/security, trellis/plugins, trellis/auth and trellis/runtime resolve under moduleResolution ${resolution}`, async () => {
      await assertCompiles(`types/tsconfig.${resolution}.json`);
    });
  }
});
