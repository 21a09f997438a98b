import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { analyse } from '../doctor/analyse';
import type { DoctorReport } from '../doctor/report';
import { cleanup, copyFixture, FIXTURES, ROOT, runCli } from './run-support';

after(cleanup);

const fixture = (name: string) => relative(ROOT, join(FIXTURES, name));
/** `file:line code message` of each finding. */
const findings = (list: DoctorReport['errors']) => list.map((f) => `${f.file ?? '-'}:${f.line ?? '-'} ${f.code} ${f.message}`);

describe('trellis doctor', () => {
  it('passes a healthy project: exit 0, the route table with Class.method and file:line, the summary', async () => {
    const healthy = fixture('healthy');
    const result = await runCli(['doctor', healthy]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
    assert.equal(
      result.stdout,
      [
        `trellis doctor ${healthy}`,
        `Config:   ${healthy}/config.yaml`,
        'Routers:  2 discovered',
        `  AdminRouter  ${healthy}/routers/admin.ts:6   2 routes`,
        `  TaskRouter   ${healthy}/routers/tasks.ts:11  3 routes`,
        'Routes:',
        '  METHOD  PATH                   HANDLER                 SOURCE',
        `  GET     /admin/settings        AdminRouter.settings    ${healthy}/routers/admin.ts:13`,
        `  GET     /admin/slow            AdminRouter.slow        ${healthy}/routers/admin.ts:19`,
        `  GET     /tasks                 TaskRouter.list         ${healthy}/routers/tasks.ts:17`,
        `  GET     /tasks/{task_id}       TaskRouter.one          ${healthy}/routers/tasks.ts:22`,
        `  POST    /tasks                 TaskRouter.create       ${healthy}/routers/tasks.ts:27`,
        '  GET     /static/*              StaticFiles.file        (trellis: config.yaml)',
        '  GET     /favicon.ico           Favicon.icon            (trellis: config.yaml)',
        '  GET     /docs                  DocsRouter.landing      (trellis: config.yaml)',
        '  GET     /docs/swagger          DocsRouter.swagger      (trellis: config.yaml)',
        '  GET     /docs/redoc            DocsRouter.redoc        (trellis: config.yaml)',
        '  GET     /docs/swagger-init.js  DocsRouter.swaggerInit  (trellis: config.yaml)',
        '  GET     /docs/openapi.json     DocsRouter.json         (trellis: config.yaml)',
        '  GET     /docs/openapi.yaml     DocsRouter.yaml         (trellis: config.yaml)',
        '  GET     /docs/assets/{name}    DocsRouter.asset        (trellis: config.yaml)',
        '  GET     /docs/v{n}/{file}      DocsRouter.versioned    (trellis: config.yaml)',
        '  GET     /healthz               HealthRouter.live       (trellis: config.yaml)',
        '  GET     /readyz                HealthRouter.ready      (trellis: config.yaml)',
        'OpenAPI:  valid (OpenAPI 3.1.0, 5 operations)',
        '2 routers, 5 routes, 0 errors, 0 warnings',
        '',
      ].join('\n'),
    );
  });

  it('fails on a duplicate route: exit 1, both handlers and both places named', async () => {
    const duplicate = fixture('duplicate');
    const result = await runCli(['doctor', duplicate]);
    assert.equal(result.code, 1);
    assert.equal(result.stderr, 'trellis: doctor found 1 error\n');
    assert.match(
      result.stdout,
      new RegExp(
        `\\n {2}error {3}${duplicate}/routers/legacy\\.ts:6: Duplicate route GET /items: ItemRouter\\.list and LegacyRouter\\.oldList ` +
          'declare the same method and path \\(routers/items\\.ts:5 and routers/legacy\\.ts:6\\) \\[TRELLIS_ERR_DUPLICATE_ROUTE\\]\\n',
      ),
    );
    assert.match(result.stdout, /\n2 routers, 2 routes, 1 error, 3 warnings\n$/);
  });

  it('prints the same analysis as JSON with --json, and still exits 1 on errors', async () => {
    const result = await runCli(['doctor', fixture('duplicate'), '--json']);
    assert.equal(result.code, 1);
    const report = JSON.parse(result.stdout) as DoctorReport;
    assert.equal(report.config, 'config.yaml');
    assert.deepEqual(report.summary, { routers: 2, routes: 2, errors: 1, warnings: 3 });
    assert.deepEqual(report.routes, [
      { method: 'GET', path: '/items', handler: 'ItemRouter.list', file: 'routers/items.ts', line: 5 },
      { method: 'GET', path: '/items', handler: 'LegacyRouter.oldList', file: 'routers/legacy.ts', line: 6 },
      ...['landing /docs', 'swagger /docs/swagger', 'redoc /docs/redoc', 'swaggerInit /docs/swagger-init.js', 'json /docs/openapi.json', 'yaml /docs/openapi.yaml', 'asset /docs/assets/{name}', 'versioned /docs/v{n}/{file}']
        .map((entry) => entry.split(' '))
        .map(([handler, path]) => ({ method: 'GET', path, handler: `DocsRouter.${handler}`, builtIn: true })),
      { method: 'GET', path: '/healthz', handler: 'HealthRouter.live', builtIn: true },
      { method: 'GET', path: '/readyz', handler: 'HealthRouter.ready', builtIn: true },
    ]);
    assert.deepEqual(
      report.errors.map((e) => [e.severity, e.code, e.file, e.line]),
      [['error', 'TRELLIS_ERR_DUPLICATE_ROUTE', 'routers/legacy.ts', 6]],
    );
    assert.match(report.errors[0].message, /ItemRouter\.list and LegacyRouter\.oldList/);
    assert.deepEqual(report.openapi, { checked: true, valid: true, version: '3.1.0', operations: 1 });

    const healthy = await runCli(['doctor', fixture('healthy'), '--json']);
    assert.equal(healthy.code, 0);
    assert.deepEqual(JSON.parse(healthy.stdout).summary, { routers: 2, routes: 5, errors: 0, warnings: 0 });
  });

  it('finds unbound {params}, @Path names missing from the path, and every kind of warning', async () => {
    const report = await analyse(join(FIXTURES, 'messy'));
    assert.deepEqual(findings(report.errors), [
      "routers/orders.ts:12 TRELLIS_ERR_PARAM_UNDECLARED OrderRouter.one: @Path('ident') names no {ident} in the route path /orders/{order_id}",
      "routers/users.ts:30 unbound-param GET /users/{user_id}/friends/{friend_id}: {friend_id} is bound by no argument of UserRouter.friend (add @Path('friend_id'))",
      "routers/users.ts:18 TRELLIS_ERR_RESPONSE_UNKNOWN UserRouter.one: the response of status 200 is declared as UserOut, whose properties cannot be known (it has no property with a class-validator or @Expose() decorator); the app does not start rather than send whole bodies: decorate the properties to send (class-validator rules such as @IsString(), @Allow(), or class-transformer's @Expose()), or set shapeResponse: false on the route to send them as JSON.stringify does",
    ]);
    assert.deepEqual(findings(report.warnings), [
      'routers/users.ts:18 shadowed-route GET /users/{user_id} (UserRouter.one) never sees /users/me: UserRouter.me is declared after it and wins, as literal segments beat {params}',
      'routers/users.ts:6 unvalidated-model UserOut has no validation decorators (@IsString(), @IsInt(), ...): the docs show it as an empty object, and as a @Body() or a response class the app refuses to start',
      'services/mailer.ts:2 unused-service Mailer is injected nowhere: no router, middleware or service takes it in its constructor, and no handler through @Depends()',
      'middleware/audit.ts:4 unused-middleware Audit is used nowhere: list audit in config.yaml middleware: [...] or put @Use(Audit) above a router or handler',
      'config.yaml:3 missing-static static folder public/ not found: nothing is served under /public',
      '-:- missing-templates templates folder templates/ not found: rendering a template will fail',
      '-:- missing-favicon favicon.ico not found: browsers get a 404 for /favicon.ico',
    ]);
    assert.deepEqual(
      report.routers.map((r) => [r.name, r.routes, r.rejected]),
      [
        ['OrderRouter', 0, true],
        ['UserRouter', 3, false],
      ],
    );
    assert.deepEqual(report.summary, { routers: 2, routes: 3, errors: 3, warnings: 7 });
  });

  it('does not warn about a literal route written before the parameter route it beats', async () => {
    const dir = copyFixture('messy');
    const users = join(dir, 'routers', 'users.ts');
    writeFileSync(
      users,
      [
        "import { Get, router } from 'trellis';",
        "import { Path } from 'trellis/param';",
        "export class UserRouter extends router('/users') {",
        "  @Get('/me') me() { return {}; }",
        "  @Get('/{user_id}') one(@Path('user_id') id: string) { return { id }; }",
        '}',
      ].join('\n'),
    );
    const report = await analyse(dir);
    assert.deepEqual(report.warnings.filter((w) => w.code === 'shadowed-route'), []);
  });

  it('keeps going after a config error and a file that fails to load, reporting both', async () => {
    const dir = copyFixture('healthy');
    writeFileSync(join(dir, 'config.yaml'), 'server:\n  port: high\nmiddleware: [timing]\nadmin: { token: t }\n');
    writeFileSync(join(dir, 'routers', 'broken.ts'), 'export const x = ;\n');
    const result = await runCli(['doctor', '.'], { cwd: dir });
    assert.equal(result.code, 1);
    assert.match(result.stdout, /\n {2}error {3}config\.yaml:2: server\.port must be an integer from 0 to 65535, got "high" \[config\]\n/);
    assert.match(result.stdout, /\n {2}error {3}routers\/broken\.ts:1: SyntaxError: Expression expected \[load\]\n/);
    assert.match(result.stdout, /\n2 routers, 5 routes, 2 errors, 0 warnings\n$/);
  });

  it('refuses a path that is not a project in one line', async () => {
    const result = await runCli(['doctor', 'no/such/project']);
    assert.deepEqual([result.code, result.stdout, result.stderr], [1, '', 'trellis: no/such/project does not exist\n']);
  });
});
