import type { Finding, RouteRow } from '../report';

const isParam = (segment: string) => /^\{[^{}]*\}$/.test(segment);

/** Whether `specific` wins over `general` for some request: same length, a literal wherever they differ. */
function overrides(specific: string[], general: string[]): boolean {
  if (specific.length !== general.length) return false;
  let narrower = false;
  for (let i = 0; i < general.length; i++) {
    if (specific[i] === general[i] || (isParam(specific[i]) && isParam(general[i]))) continue;
    if (!isParam(general[i]) || isParam(specific[i])) return false;
    narrower = true;
  }
  return narrower;
}

/**
 * Literal segments win over `{params}` whatever the order (`/users/me` beats `/users/{user_id}`). That
 * surprises when the literal route is written after the parameter route in the same file, or lives in
 * another file: reading the parameter route, nothing says some of its requests go elsewhere.
 */
export function shadowedRoutes(rows: RouteRow[]): Finding[] {
  const findings: Finding[] = [];
  const segments = rows.map((row) => row.path.split('/'));
  rows.forEach((general, g) => {
    rows.forEach((specific, s) => {
      if (g === s || general.method !== specific.method || !overrides(segments[s], segments[g])) return;
      const sameFile = general.file === specific.file;
      if (sameFile && specific.line < general.line) return; // written first: reads as intended
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
