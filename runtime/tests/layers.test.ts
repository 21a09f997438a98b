import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { ICruiseResult, IForbiddenRuleType, IViolation } from 'dependency-cruiser';
import { ROOT } from './support';

interface Layer {
  name: string;
  why: string;
  paths: string[];
}
interface Exception {
  name: string;
  why: string;
  from: string;
  to: string[];
}
type Config = { forbidden: IForbiddenRuleType[]; options: Record<string, unknown>; layers: Layer[]; exceptions: Exception[] };

const config = require('../../.dependency-cruiser.cjs') as Config;
// dependency-cruiser is an ES module only, and this file is compiled to CommonJS, where `import()` becomes `require()`.
const importModule = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<typeof import('dependency-cruiser')>;

let result: ICruiseResult;

before(async () => {
  const { cruise } = await importModule('dependency-cruiser');
  const { default: extractTSConfig } = (await importModule('dependency-cruiser/config-utl/extract-ts-config')) as unknown as {
    default: (fileName: string) => unknown;
  };
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    const output = await cruise(
      ['framework', 'runtime', 'cli', 'generators'],
      { ...config.options, ruleSet: { forbidden: config.forbidden }, validate: true },
      undefined,
      { tsConfig: extractTSConfig('tsconfig.json') },
    );
    result = output.output as ICruiseResult;
  } finally {
    process.chdir(cwd);
  }
});

/**
 * `from -> to breaks rule name: why`, one line per violation of the rules `accept` takes. Loops come shortest first,
 * each only when it holds a file no shorter one did: dependency-cruiser reports a loop once per import in it.
 */
function broken(accept: (name: string) => boolean): string[] {
  const path = (violation: IViolation) => [violation.from, ...(violation.cycle ?? []).map((step) => step.name)];
  const looped = new Set<string>();
  return result.summary.violations
    .filter((violation: IViolation) => accept(violation.rule.name))
    .sort((a: IViolation, b: IViolation) => path(a).length - path(b).length)
    .filter((violation: IViolation) => {
      if (!violation.cycle) return true;
      const fresh = path(violation).filter((file) => !looped.has(file));
      for (const file of fresh) looped.add(file);
      return fresh.length > 0;
    })
    .map((violation: IViolation) => {
      const why = config.forbidden.find((rule) => rule.name === violation.rule.name)?.comment ?? '';
      return `${violation.from} -> ${violation.to} breaks rule ${violation.rule.name}: ${why}${violation.cycle ? ` (${path(violation).join(' -> ')})` : ''}`;
    });
}

const isTest = (file: string) => /(^|\/)(tests?|fixtures|test-support)\/|\.test\.ts$/.test(file);

describe('the import rules (.dependency-cruiser.cjs, dependency-cruiser over framework/, runtime/, cli/, generators/)', () => {
  it('the scan counts type-only imports and resolves the package entries through tsconfig paths', () => {
    const dependencies = (source: string) => result.modules.find((module) => module.source === source)?.dependencies ?? [];
    const typeOnly = dependencies('framework/routing/route-info.ts').find((dependency) => dependency.resolved === 'framework/core/types.ts');
    assert.ok(typeOnly?.dependencyTypes.includes('type-only'), 'route-info.ts -> core/types.ts is seen as a type-only import');
    const cli = result.modules.filter((module) => module.source.startsWith('cli/') && !isTest(module.source));
    const throughEntry = cli.flatMap((module) => module.dependencies).filter((dependency) => dependency.module === 'trellis/runtime');
    assert.ok(throughEntry.length > 0 && throughEntry.every((dependency) => dependency.resolved === 'runtime/index.ts'), "cli's `trellis/runtime` resolves to runtime/index.ts");
    assert.ok(result.summary.totalCruised > 300, `${result.summary.totalCruised} modules cruised`);
  });

  it('no import cycle, type-only imports included', () => {
    assert.deepEqual(broken((name) => name === 'no-circular'), []);
  });

  it('the framework imports no tool, the runtime no CLI, and the tools use the package entries only', () => {
    assert.deepEqual(broken((name) => !name.startsWith('layer-') && name !== 'no-circular'), []);
  });

  it("a layer of the framework never imports a higher one (core, request-response, routing-pipeline, dispatch, node-adapter, features, app)", () => {
    assert.deepEqual(
      config.layers.map((layer) => layer.name),
      ['core', 'request-response', 'routing-pipeline', 'dispatch', 'node-adapter', 'features', 'app'],
    );
    assert.deepEqual(broken((name) => name.startsWith('layer-')), []);
  });

  it('every file of framework/ belongs to a layer', () => {
    const patterns = config.layers.flatMap((layer) => layer.paths).map((pattern) => new RegExp(pattern));
    const unplaced = result.modules
      .map((module) => module.source)
      .filter((source) => source.startsWith('framework/') && !isTest(source) && !patterns.some((pattern) => pattern.test(source)))
      .map((source) => `${source} has no layer: add it to LAYERS in .dependency-cruiser.cjs`);
    assert.deepEqual(unplaced, []);
  });

  it('every known exception still occurs (remove one once its import is gone)', () => {
    const imports = new Set(result.modules.flatMap((module) => module.dependencies.map((dependency) => `${module.source} -> ${dependency.resolved}`)));
    const stale = config.exceptions
      .flatMap((exception) => exception.to.map((to) => ({ name: exception.name, edge: `${exception.from} -> ${to}` })))
      .filter(({ edge }) => !imports.has(edge))
      .map(({ name, edge }) => `${edge} no longer occurs: remove it from exception ${name} in .dependency-cruiser.cjs`);
    assert.deepEqual(stale, []);
  });
});
