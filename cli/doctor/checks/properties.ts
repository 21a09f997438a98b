import { isAbsolute, join, relative } from 'node:path';
import { hasValidationRules, type Class } from 'trellis/inspect';
import { undecoratedProperties, type InspectedRoute } from 'trellis/inspect';
import type { Found } from 'trellis/internal';
import type { Finding } from '../report';

/**
 * Properties a DTO class declares without a decorator beside decorated ones (`note?: string` in a class whose other
 * fields have rules): nothing records them at run time, so validation strips them from every request body and a
 * response class leaves them out. Looks at the models routes name and the other classes `routers/` files export,
 * where the project declares them; classes without any rule are `unvalidated-model`'s.
 */
export function bareProperties(projectDir: string, routes: readonly InspectedRoute[], exported: Found[]): Finding[] {
  const files = new Map<Class, string>();
  for (const found of exported) files.set(found.cls, found.file);
  // A model the routers do not export is looked for in the file of a route naming it.
  for (const route of routes) {
    const file = route.source?.file && relative(projectDir, route.source.file);
    for (const model of route.models) if (!files.get(model) && file && !file.startsWith('..') && !isAbsolute(file)) files.set(model, file);
  }
  const findings: Finding[] = [];
  for (const [model, file] of files) {
    if (!file || !hasValidationRules(model)) continue;
    for (const { name, line } of undecoratedProperties(join(projectDir, file), model.name)) {
      findings.push({
        severity: 'warning',
        code: 'undecorated-property',
        message: `${model.name}.${name} has no decorator, so nothing knows it at run time: validation strips it from every request body and a response leaves it out; decorate it (@IsString(), @IsOptional(), @Allow(), ...)`,
        file,
        line,
      });
    }
  }
  return findings;
}
