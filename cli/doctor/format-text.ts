import { isAbsolute, join } from 'node:path';
import { createColors } from 'picocolors';
import { messages } from '../messages';
import type { DoctorReport, Finding } from './report';

// Colour only on a terminal: picocolors alone also colours whenever CI is set, into logs and pipes.
const pc = createColors(Boolean(process.stdout.isTTY) && !('NO_COLOR' in process.env));

/** Columns padded to their widest cell, two spaces apart. */
function table(rows: string[][], indent = '  '): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => row[i].length))) ?? [];
  return rows.map((row) => indent + row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]))).join('  '));
}

/** The human report: config, routers, the route table, the gateways, errors, warnings, OpenAPI, and the summary line. */
export function formatText(report: DoctorReport): string {
  const at = (file: string | undefined, line?: number) =>
    file === undefined ? '-' : `${isAbsolute(file) ? file : join(report.project, file)}${line ? `:${line}` : ''}`;
  const finding = (item: Finding, label: string) =>
    `  ${label} ${item.file ? `${at(item.file, item.line)}: ` : ''}${item.message} ${pc.dim(`[${item.code}]`)}`;
  const lines = [messages.doctor.title(report.project), messages.doctor.config(report.config && at(report.config))];

  lines.push(messages.doctor.routers(report.routers.length));
  lines.push(...table(report.routers.map((r) => [r.name, at(r.file, r.line), r.rejected ? messages.doctor.rejected : messages.doctor.routeCount(r.routes)])));
  if (report.routes.length) {
    lines.push(messages.doctor.routes);
    const header = ['METHOD', 'PATH', 'HANDLER', 'SOURCE'];
    lines.push(...table([header, ...report.routes.map((r) => [r.method, r.path, r.handler, r.builtIn ? messages.doctor.builtIn : at(r.file, r.line)])]));
  }
  if (report.gateways.length) {
    lines.push(messages.doctor.gateways(report.gateways.length));
    const header = ['PATH', 'CLASS', 'GUARDS', 'EVENTS', 'SOURCE'];
    const list = (names: string[]) => names.join(', ') || '-';
    lines.push(...table([header, ...report.gateways.map((g) => [g.path, g.name, list(g.guards), g.rejected ? messages.doctor.rejected : list(g.events), at(g.file, g.line)])]));
  }
  if (report.errors.length) lines.push(messages.doctor.errors, ...report.errors.map((e) => finding(e, pc.red('error  '))));
  if (report.warnings.length) lines.push(messages.doctor.warnings, ...report.warnings.map((w) => finding(w, pc.yellow('warning'))));
  if (report.validation.length) {
    lines.push(messages.doctor.validation(report.validation.length));
    lines.push(...table(report.validation.map((v) => [v.model, at(v.file, v.line), v.reason])));
  }
  lines.push(messages.doctor.openapi(report.openapi));
  const { routers, routes, errors, warnings } = report.summary;
  lines.push(messages.doctor.summary(routers, routes, errors, warnings));
  return `${lines.join('\n')}\n`;
}
