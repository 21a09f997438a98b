import { join } from 'node:path';
import { hasValidationRules, type Class, type RouteInfo } from '../../../framework/index';
import { classLine, type Found } from '../../../runtime';
import type { Finding } from '../report';

const PLAIN = new Set<unknown>([Object, Array, String, Number, Boolean, Date, Promise, undefined, null]);

/** The model classes a route names: its body type and its documented response models. */
function modelsOf(route: RouteInfo): Class[] {
  const models: unknown[] = [];
  for (const param of route.params) {
    if (param.kind !== 'body') continue;
    models.push(typeof param.type === 'function' ? param.type : route.paramTypes[param.index]);
  }
  const { response, responses } = route.options;
  models.push(Array.isArray(response) ? response[0] : response);
  for (const model of Object.values(responses ?? {})) models.push(Array.isArray(model) ? model[0] : model);
  return models.filter((model): model is Class => typeof model === 'function' && !PLAIN.has(model));
}

/**
 * DTO classes without a single class-validator decorator: as a body every property would be stripped
 * (the framework refuses such a body at startup), and the docs show them as empty objects. Looks at the
 * models routes name and at the other classes `routers/` files export.
 */
export function unvalidatedModels(projectDir: string, routes: readonly RouteInfo[], exported: Found[]): Finding[] {
  const seen = new Map<Class, string | undefined>();
  for (const found of exported) seen.set(found.cls, found.file);
  for (const route of routes) for (const model of modelsOf(route)) if (!seen.has(model)) seen.set(model, undefined);
  const findings: Finding[] = [];
  for (const [model, file] of seen) {
    if (hasValidationRules(model)) continue;
    findings.push({
      severity: 'warning',
      code: 'unvalidated-model',
      message: `${model.name} has no validation decorators (@IsString(), @IsInt(), ...): the docs show it as an empty object, and as a @Body() the framework refuses it`,
      file,
      line: file ? classLine(join(projectDir, file), model.name) : undefined,
    });
  }
  return findings;
}
