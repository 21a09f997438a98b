import { TrellisError } from 'trellis/inspect';
import { pathShape } from 'trellis/inspect';
import type { Finding, RouteRow } from '../report';

/**
 * Routes of different routers with the same method and path shape (parameter names aside): the framework
 * refuses to start with them (TRELLIS_ERR_DUPLICATE_ROUTE). Every clash is reported, naming both handlers.
 */
export function duplicateRoutes(rows: RouteRow[]): Finding[] {
  const first = new Map<string, RouteRow>();
  const findings: Finding[] = [];
  const at = (row: RouteRow) => `${row.file ?? '-'}:${row.line ?? '-'}`;
  for (const row of rows) {
    const key = `${row.method} ${pathShape(row.path)}`;
    const earlier = first.get(key);
    if (!earlier) {
      first.set(key, row);
      continue;
    }
    const error = new TrellisError('TRELLIS_ERR_DUPLICATE_ROUTE', `${row.method} ${row.path}`, earlier.handler, row.handler);
    findings.push({
      severity: 'error',
      code: error.code,
      message: `${error.message} (${at(earlier)} and ${at(row)})`,
      file: row.file,
      line: row.line,
    });
  }
  return findings;
}
