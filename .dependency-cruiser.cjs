// The import rules of framework/, runtime/, cli/ and generators/, checked in `npm test` (runtime/tests/layers.test.ts)
// and by hand with `npx depcruise --config .dependency-cruiser.cjs framework runtime cli generators`.
// Type-only imports count (`tsPreCompilationDeps`): an `import type` loop is a loop.
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

/** Tests, fixtures and test helpers: held to no-circular only. */
const TESTS = '(^|/)(tests?|fixtures|test-support)/|\\.test\\.ts$';

/** Anchors a repository-relative file name as a pattern. */
const file = (name) => `^${name.replace(/[.]/g, '\\.')}$`;
const either = (patterns) => patterns.join('|');

// The package entries (`trellis`, `trellis/param`, ..., `trellis/runtime`, and any entry added to tsconfig.json's
// paths), and the private entries the package does not export (the tools' plumbing): the only files of framework/
// and runtime/ that the CLI and the generators import, and the only files of framework/ the runtime imports.
const tsconfig = JSON.parse(readFileSync(join(__dirname, 'tsconfig.json'), 'utf8'));
const PRIVATE_ENTRIES = ['framework/internal.ts', 'runtime/internal.ts'];
const ENTRIES = [
  ...new Set([
    ...Object.values(tsconfig.compilerOptions.paths)
      .flat()
      .map((target) => target.replace(/^\.\//, '')),
    ...PRIVATE_ENTRIES,
  ]),
].filter((target) => /^(framework|runtime)\//.test(target));

/**
 * The framework's layers, bottom to top. A file belongs to the first layer one of whose patterns it matches, and
 * imports nothing of a layer above its own. A file of framework/ that no layer names fails the test.
 */
const LAYERS = [
  {
    name: 'core',
    why: 'shared types, internal keys and the error registry import nothing above them',
    paths: [
      '^framework/core/',
      '^framework/codegen/',
      file('framework/symbols.ts'),
      file('framework/framework-error.ts'),
      // Leaves of shared types that sit in a feature's folder because the feature declares them; the layers
      // below the features name them too (a request's upload limits, the readiness the lifecycle checks).
      file('framework/health/readiness.ts'),
      file('framework/health/settings.ts'),
      file('framework/lifecycle/state.ts'),
      file('framework/uploads/form-source.ts'),
      file('framework/uploads/form.ts'),
      file('framework/uploads/limits.ts'),
      // Leaf tools: a stack frame's location, loading the optional TypeScript compiler.
      file('framework/source/stack.ts'),
      file('framework/source/typescript.ts'),
    ],
  },
  {
    name: 'request-response',
    why: 'the request and response data know nothing of routing, dispatch, the server or the features',
    paths: [
      file('framework/request.ts'),
      file('framework/response.ts'),
      file('framework/result.ts'),
      file('framework/cookies.ts'),
      file('framework/error-envelope.ts'),
      file('framework/http-exception.ts'),
      file('framework/request-id.ts'),
      file('framework/report.ts'),
      file('framework/logger.ts'),
      file('framework/security.ts'),
      '^framework/responses/',
    ],
  },
  {
    name: 'routing-pipeline',
    why: 'the recorded metadata, routers, middleware, routing, the argument and validation pipeline, injection, the lifecycle and config sections never reach into dispatch, the server or a feature',
    paths: [
      file('framework/metadata.ts'),
      file('framework/router.ts'),
      file('framework/middleware.ts'),
      '^framework/decorators/',
      '^framework/routing/(?!inspect-routes\\.ts$)',
      '^framework/pipeline/',
      '^framework/injection/',
      '^framework/lifecycle/',
      file('framework/config.ts'),
      file('framework/config-section.ts'),
      file('framework/settings.ts'),
      // Form bodies: the one body reader parses urlencoded and multipart bodies and `@UploadedFile` reads their
      // parts, so the parsers sit with it (the uploads plug-in only sets their limits).
      '^framework/uploads/(?!index\\.ts$)',
      // What `@RateLimit` checks where a class is defined: a limit's options and its window.
      file('framework/rate-limit/policy.ts'),
      file('framework/rate-limit/window.ts'),
      // What `@Cors` records: the options' types.
      file('framework/cors/options.ts'),
      // API versions: what routers and `@Version` record, the request's version, each version's document.
      '^framework/versioning/',
      // The JSON schemas of DTO classes and source types, built alike for the response serializer and for the
      // OpenAPI document: the pipeline's, which the document's builder above reads.
      file('framework/openapi/schemas.ts'),
      file('framework/openapi/source-schemas.ts'),
      file('framework/openapi/types.ts'),
      file('framework/source/types/table.ts'),
      file('framework/source/types/cache.ts'),
    ],
  },
  {
    name: 'dispatch',
    why: 'dispatch runs a matched route and maps its errors; it never reaches into the server or a feature',
    paths: [file('framework/dispatch.ts'), file('framework/exception-handlers.ts'), file('framework/exception-status.ts')],
  },
  {
    name: 'node-adapter',
    why: 'the Node adapter (listener, writer, server, timeouts) never reaches into a feature or the app',
    paths: [
      file('framework/app-listener.ts'),
      file('framework/write.ts'),
      file('framework/server.ts'),
      file('framework/server-timeouts.ts'),
      file('framework/protocol.ts'),
    ],
  },
  {
    name: 'features',
    why: 'a feature plugs into the app; it never imports the app or the entries',
    paths: [
      // The plug-in contract the features implement and the app registers (builtin.ts, the app's list of them, is the app's).
      '^framework/plugin/(?!builtin\\.ts$)',
      '^framework/docs/',
      '^framework/health/',
      '^framework/database/',
      '^framework/auth/',
      '^framework/metrics/',
      '^framework/static/',
      '^framework/templates/',
      '^framework/uploads/',
      '^framework/compression/',
      '^framework/rate-limit/(?!policy\\.ts$|window\\.ts$)',
      '^framework/redis/',
      '^framework/cors/(?!options\\.ts$)',
      '^framework/etag/',
      '^framework/websocket/',
      '^framework/express/(?!index\\.ts$)',
      '^framework/openapi/',
      '^framework/source/',
      // TestClient's parts (trellis/testing is the entry).
      '^framework/testing/',
    ],
  },
  {
    name: 'app',
    why: 'the app and the package entries sit on top',
    paths: [
      // app.ts and the files it is made of (app-options.ts, app-core.ts, ...); app-listener.ts is the adapter's.
      file('framework/app.ts'),
      '^framework/app-[\\w-]+\\.ts$',
      // The built-in plug-ins AppOptions asks for.
      file('framework/plugin/builtin.ts'),
      file('framework/inspect-start.ts'),
      file('framework/routing/inspect-routes.ts'),
      // The package entries (tsconfig.json's paths) and any other top-level entry module.
      ...ENTRIES.filter((entry) => entry.startsWith('framework/')).map(file),
    ],
  },
];

/**
 * Known breaks of the layer rules, each waiting for a rewrite under way (issue 30): remove an entry once its
 * imports are gone (the test fails on an entry that no longer occurs). `from` imports each of `to`.
 */
const EXCEPTIONS = [
];

const layerPattern = (index) => either(LAYERS[index].paths);
const lowerPatterns = (index) => LAYERS.slice(0, index).map((_, lower) => layerPattern(lower));
/** Whether `name` is a file of layer `index`: one of its patterns, and none of an earlier layer's. */
const inLayer = (index, name) =>
  new RegExp(layerPattern(index)).test(name) && !lowerPatterns(index).some((pattern) => new RegExp(pattern).test(name));
/** The files of the layers above `index` (a file is of the first layer that names it). */
const above = (index) => ({
  path: either(LAYERS.slice(index + 1).map((_, offset) => layerPattern(index + 1 + offset))),
  pathNot: either(LAYERS.slice(0, index + 1).map((_, lower) => layerPattern(lower))),
});

/** One rule per layer below the top; a file with exceptions gets its own copy of the rule, without those targets. */
const layerRules = LAYERS.slice(0, -1).flatMap((layer, index) => {
  const name = `layer-${layer.name}`;
  const comment = `${layer.why} (above it: ${LAYERS.slice(index + 1).map((upper) => upper.name).join(', ')})`;
  const exceptional = [...new Set(EXCEPTIONS.map((exception) => exception.from))].filter((source) => inLayer(index, source));
  const excepted = (source) => EXCEPTIONS.filter((exception) => exception.from === source);
  return [
    {
      name,
      comment,
      severity: 'error',
      from: { path: layerPattern(index), pathNot: either([TESTS, ...lowerPatterns(index), ...exceptional.map(file)]) },
      to: above(index),
    },
    ...exceptional.map((source) => ({
      name,
      comment: `${comment}; known exceptions: ${[...new Set(excepted(source).map((exception) => exception.name))].join(', ')}`,
      severity: 'error',
      from: { path: file(source) },
      to: { ...above(index), pathNot: either([above(index).pathNot, ...excepted(source).flatMap((exception) => exception.to).map(file)]) },
    })),
  ];
});

const config = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no import cycle anywhere, type-only imports included',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'framework-is-standalone',
      comment: 'the framework never imports the runtime, the CLI, the generators or the blueprints',
      severity: 'error',
      from: { path: '^framework/', pathNot: TESTS },
      to: { path: '^(runtime|cli|generators|blueprints)/' },
    },
    {
      name: 'runtime-below-tools',
      comment: 'the runtime never imports the CLI, the generators or the blueprints',
      severity: 'error',
      from: { path: '^runtime/', pathNot: TESTS },
      to: { path: '^(cli|generators|blueprints)/' },
    },
    {
      name: 'generators-below-cli',
      comment: 'the generators never import the CLI (cli -> generators -> blueprints)',
      severity: 'error',
      from: { path: '^generators/', pathNot: TESTS },
      to: { path: '^cli/' },
    },
    {
      name: 'tools-use-entries',
      comment: `the CLI and the generators use the framework and the runtime only through the package entries (${ENTRIES.join(', ')})`,
      severity: 'error',
      from: { path: '^(cli|generators)/', pathNot: TESTS },
      to: { path: '^(framework|runtime)/', pathNot: either(ENTRIES.map(file)) },
    },
    {
      name: 'runtime-uses-entries',
      comment: `the runtime uses the framework only through the package entries (${ENTRIES.filter((entry) => entry.startsWith('framework/')).join(', ')})`,
      severity: 'error',
      from: { path: '^runtime/', pathNot: TESTS },
      to: { path: '^framework/', pathNot: either(ENTRIES.map(file)) },
    },
    ...layerRules,
  ],
  options: {
    tsPreCompilationDeps: true,
    // @swc/core (a devDependency, the loader's compiler) parses faster than typescript and finds the same imports,
    // type-only ones included.
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules|(^|/)dist/' },
  },
};

// For runtime/tests/layers.test.ts; not enumerable, as dependency-cruiser refuses keys of its own it does not know.
module.exports = Object.defineProperties(config, { layers: { value: LAYERS }, exceptions: { value: EXCEPTIONS } });
