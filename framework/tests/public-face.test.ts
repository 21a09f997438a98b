import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');

/**
 * Every name each public entry exports, values and types apart. A new export, or one that leaves, is a
 * deliberate change of this list (and of docs/reference/entry-points.md). `trellis/internal` is left out: it is
 * trellis-cli's, with no promise.
 */
const PUBLIC: Record<string, { file: string; values: string[]; types: string[] }> = {
  trellis: {
    file: 'framework/index.ts',
    values: [
      'BaseRouter', 'Config', 'Cors', 'Delete', 'ETag', 'EventSourceResponse', 'FileResponse', 'Form', 'Get', 'HTMLResponse', 'HTTPException',
      'Head', 'Inject', 'Injectable', 'InjectionToken', 'JSONResponse', 'Middleware', 'Options', 'Patch', 'Post', 'Put',
      'RedirectResponse', 'Request', 'Response', 'Scopes', 'Settings', 'StreamingResponse', 'TemplateResponse', 'Use', 'Version', 'closeGracefully', 'RateLimit',
      'listen', 'router', 'serverUrl',
    ],
    types: ['CallNext', 'CorsOptions', 'InjectableOptions', 'OnRequestEnd', 'OpenAPIOptions', 'RateLimitOptions', 'RequestOutcome', 'RequestState', 'RouterOptions', 'Scope', 'User', 'VersioningOptions'],
  },
  'trellis/plugins': {
    file: 'framework/plugins.ts',
    // The interface and the features built on it: an app registers them (app.register(docs({ path: '/api-docs' }))).
    values: ['docs', 'favicon', 'health', 'metrics', 'staticFiles', 'templates', 'uploads', 'compression', 'websockets', 'cors', 'etag', 'rateLimit', 'memoryStore', 'redisStore', 'connectRedis', 'RedisSettings'],
    types: ['CompressionOptions', 'ETagOptions', 'Plugin', 'PluginHost', 'RateLimitPluginOptions', 'MemoryStoreOptions', 'RedisStoreOptions', 'RateLimitStore', 'RateLimitHit', 'TrustProxy', 'ConnectRedisOptions'],
  },
  'trellis/database': {
    file: 'framework/database.ts',
    // The only entry that loads kysely, pg and PGlite.
    values: ['database', 'migrateToLatest', 'pendingMigrations', 'testDatabase'],
    types: ['DatabaseOptions', 'TestDatabaseOptions'],
  },
  'trellis/auth': {
    file: 'framework/auth.ts',
    // The only entry that loads jose and fast-jwt.
    values: ['JwtAuth', 'Scopes', 'apiKeyAuth', 'grantedScopes', 'isScopeName', 'jwtAuth', 'signToken'],
    types: ['ApiKeyAuthOptions', 'ApiKeyLookup', 'JwtAuthOptions', 'SignTokenOptions', 'User'],
  },
  'trellis/websocket': {
    file: 'framework/websocket.ts',
    // The only entry that loads ws (when a gateway app starts).
    values: ['Emits', 'Gateway', 'OnMessage', 'Rooms', 'WebSocketClient', 'WebSocketSettings', 'gateway', 'isGatewayClass', 'memoryBus', 'redisBus'],
    types: ['EmitsOptions', 'GatewayOptions', 'RedisBusOptions', 'RoomBus', 'WebSocketOptions'],
  },
  'trellis/param': {
    file: 'framework/param.ts',
    values: ['Body', 'Depends', 'Header', 'Int', 'Path', 'Query', 'Req', 'RequestValidationError', 'UploadedFile'],
    types: ['BodyOptions', 'ClassValueOptions', 'PathOptions', 'ValidationDetail', 'ValueConstraints', 'ValueOptions'],
  },
  'trellis/testing': { file: 'framework/testing.ts', values: ['TestClient', 'TestResponse'], types: ['RequestOptions', 'TestClientOptions'] },
  'trellis/security': {
    file: 'framework/security.ts',
    values: ['apiKeyHeader', 'basicAuth', 'bearerAuth'],
    types: ['SecurityDeclaration', 'SecurityScheme'],
  },
  'trellis/express': { file: 'framework/express/index.ts', values: ['ExpressMiddlewareAdapter'], types: ['ExpressMiddleware'] },
  'trellis/inspect': {
    file: 'framework/inspect.ts',
    values: [
      'TrellisError', 'declarationOf', 'dryStart', 'handlerOf', 'hasValidationRules', 'importsOf', 'injects', 'inspectApp', 'inspectGateway',
      'isMiddlewareClass', 'isPlugin', 'isRouterClass', 'outranks', 'parseDocComments', 'pathParams', 'pathShape', 'readSourceTypes',
      'responseShapeProblems', 'scopeProblems', 'settingsSectionOf', 'stackLocations', 'undecoratedProperties', 'validationFallbacks',
    ],
    types: [
      'AppInspection', 'Class', 'ClassDocs', 'Controller', 'DocCommentTable', 'DryStart', 'ErrorCode', 'InspectedGateway', 'InspectedMiddleware',
      'InspectedRoute', 'OpenAPIDocument', 'ReadOptions', 'SourceLocation', 'TypeTable', 'ValidationFallback',
    ],
  },
  'trellis/runtime': {
    file: 'runtime/index.ts',
    values: ['ProjectError', 'createLogger', 'prepareBuild', 'runBuild', 'serve'],
    types: ['Logger', 'LoggerOptions', 'RunBuildOptions', 'ServeOptions'],
  },
};

/** The private entry: exported by the package for trellis-cli, documented as private, never in the list above. */
const PRIVATE = { 'trellis/internal': 'runtime/internal.ts' };

let program: ts.Program;
let checker: ts.TypeChecker;

function exportsOf(file: string): ts.Symbol[] {
  const source = program.getSourceFile(join(ROOT, file));
  assert.ok(source, `${file} is in the program`);
  return checker.getExportsOfModule(checker.getSymbolAtLocation(source)!);
}

// A class or function re-exported with `export type` counts as a type: that is all the entry gives.
function isValue(symbol: ts.Symbol): boolean {
  const declaration = symbol.declarations?.[0];
  if (declaration && ts.isExportSpecifier(declaration) && (declaration.isTypeOnly || declaration.parent.parent.isTypeOnly)) return false;
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return (target.flags & ts.SymbolFlags.Value) !== 0;
}

describe('the public face: what each entry exports', () => {
  before(() => {
    const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    const files = [...Object.values(PUBLIC).map(({ file }) => file), ...Object.values(PRIVATE)].map((file) => join(ROOT, file));
    program = ts.createProgram(files, { ...config!.options, noEmit: true });
    checker = program.getTypeChecker();
  });

  for (const [entry, { file, values, types }] of Object.entries(PUBLIC)) {
    it(`${entry} (${file}) exports exactly its ${values.length} values and ${types.length} types`, () => {
      const symbols = exportsOf(file);
      const names = (value: boolean) => symbols.filter((symbol) => isValue(symbol) === value).map((symbol) => symbol.name).sort();
      assert.deepEqual({ values: names(true), types: names(false) }, { values: [...values].sort(), types: [...types].sort() });
    });
  }

  for (const entry of ['trellis', 'trellis/runtime', 'trellis/database', 'trellis/auth', 'trellis/websocket']) {
    it(`every export of ${entry} is documented with JSDoc holding an @example, where it is declared`, () => {
      const undocumented = exportsOf(PUBLIC[entry].file)
        .filter((symbol) => {
          const declarations = checker.getAliasedSymbol(symbol).declarations ?? [];
          return !declarations.some((declaration) => ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'example'));
        })
        .map((symbol) => symbol.name);
      assert.deepEqual(undocumented, []);
    });
  }

  it('package.json exports the public entries, the private one and package.json, nothing else, each mapped in tsconfig.json and typesVersions', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, string | { types: string; default: string }>;
      typesVersions: { '*': Record<string, string[]> };
    };
    const paths = (JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions.paths;
    const entries = { ...Object.fromEntries(Object.entries(PUBLIC).map(([entry, { file }]) => [entry, file])), ...PRIVATE };
    assert.deepEqual(Object.keys(manifest.exports).sort(), [...Object.keys(entries).map((entry) => entry.replace(/^trellis/, '.')), './package.json'].sort());
    for (const [entry, file] of Object.entries(entries)) {
      const built = `dist/${file.replace(/\.ts$/, '')}`;
      assert.deepEqual(manifest.exports[entry.replace(/^trellis/, '.')], { types: `./${built}.d.ts`, default: `./${built}.js` }, entry);
      assert.deepEqual(paths[entry], [`./${file}`], `tsconfig.json paths: ${entry}`);
      if (entry !== 'trellis') assert.deepEqual(manifest.typesVersions['*'][entry.slice('trellis/'.length)], [`${built}.d.ts`], `typesVersions: ${entry}`);
    }
  });

  it('docs/reference/entry-points.md names every entry, and the private one as private', () => {
    const page = readFileSync(join(ROOT, 'docs', 'reference', 'entry-points.md'), 'utf8');
    const missing = [...Object.keys(PUBLIC), ...Object.keys(PRIVATE)].filter((entry) => !page.includes(`\`${entry}\``));
    assert.deepEqual(missing, []);
    assert.match(page, /`trellis\/internal`[^\n]*private/);
  });
});
