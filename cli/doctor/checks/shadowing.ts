import { outranks } from 'trellis/inspect';
import type { Finding, RouteRow } from '../report';

/**
 * Literal segments win over `{params}` whatever the order (`/users/me` beats `/users/{user_id}`). That
 * surprises when the literal route is written after the parameter route in the same file, or lives in
 * another file: reading the parameter route, nothing says some of its requests go elsewhere.
 */
export function shadowedRoutes(rows: RouteRow[]): Finding[] {
  const findings: Finding[] = [];
  rows.forEach((general, g) => {
    rows.forEach((specific, s) => {
      if (g === s || general.method !== specific.method || !outranks(specific.path, general.path)) return;
      const sameFile = general.file === specific.file;
      if (sameFile && (specific.line ?? 0) < (general.line ?? 0)) return; // written first: reads as intended
      const where = sameFile ? 'is declared after it' : `is declared in ${specific.file}`;
      findings.push({
        severity: 'warning',
        code: 'shadowed-route',
        message:
          `${general.method} ${general.path} (${general.handler}) never sees ${specific.path}: ` +
          `${specific.handler} ${where} and wins, as literal segments beat {params}`,
        file: general.file,
        line: general.line,
      });
    });
  });
  return findings;
}
