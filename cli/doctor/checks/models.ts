import { hasValidationRules, type Class } from 'trellis/inspect';
import type { InspectedRoute } from 'trellis/inspect';
import type { Found } from 'trellis/internal';
import type { Finding } from '../report';
import { declaredAt } from '../routes';

/**
 * DTO classes without a single class-validator decorator: as a body every property would be stripped, and as
 * a response class nothing of it is known (the framework refuses both at startup); the docs show them as empty objects. Looks at the
 * models routes name and at the other classes `routers/` files export.
 */
export function unvalidatedModels(projectDir: string, routes: readonly InspectedRoute[], exported: Found[]): Finding[] {
  const seen = new Map<Class, Found | undefined>();
  for (const found of exported) seen.set(found.cls, found);
  for (const route of routes) for (const model of route.models) if (!seen.has(model)) seen.set(model, undefined);
  const findings: Finding[] = [];
  for (const [model, found] of seen) {
    if (hasValidationRules(model)) continue;
    findings.push({
      severity: 'warning',
      code: 'unvalidated-model',
      message: `${model.name} has no validation decorators (@IsString(), @IsInt(), ...): the docs show it as an empty object, and as a @Body() or a response class the app refuses to start`,
      ...(found && declaredAt(projectDir, found)),
    });
  }
  return findings;
}
