import type { Class } from 'trellis/inspect';
import { validationFallbacks, type InspectedRoute } from 'trellis/inspect';
import type { Found } from 'trellis/internal';
import type { ValidationRow } from '../report';
import { declaredAt } from '../routes';

/**
 * The body DTO classes validated by class-validator at request time rather than by compiled rules, with the
 * reason (a custom or async constraint, validation groups...), where the project declares them. Not a warning:
 * such a class works, at class-validator's speed.
 */
export function validationRows(projectDir: string, routes: readonly InspectedRoute[], exported: Found[]): ValidationRow[] {
  const declared = new Map<Class, Found>(exported.map((found) => [found.cls, found]));
  return validationFallbacks(routes.map((route) => route.info)).map(({ model, reason }) => {
    const found = declared.get(model);
    return { model: model.name, reason, ...(found && declaredAt(projectDir, found)) };
  });
}
