'use strict';
// The human summary of checkDocument's report: one block per tool, the figures first, then one line per finding.

const percent = (part, whole) => (whole === 0 ? 'n/a' : `${Math.round((1000 * part) / whole) / 10} %`);

/** `a x3, b x1` from `{ a: 3, b: 1 }`, largest first. */
function counts(map) {
  return Object.entries(map)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([key, n]) => `${key} x${n}`)
    .join(', ');
}

/**
 * The summary as text lines.
 * @example console.log(summary(report, 'http://127.0.0.1:8000/docs/openapi.json').join('\n'));
 * @param {any} report
 * @param {string} source where the document came from
 * @param {{ notes?: boolean }} [options]
 */
function summary(report, source, { notes = true } = {}) {
  const lines = [];
  const { document, typed, redocly, spectral, contract, verdict } = report;
  lines.push(`OpenAPI check of ${source}`);
  lines.push(`document: OpenAPI ${document.openapi}, "${document.title}", ${document.operations} operations`, '');

  if (typed.error) lines.push(`openapi-typescript: ${typed.error}`);
  else lines.push(`openapi-typescript: ${typed.typed} of ${typed.total} success responses typed (${percent(typed.typed, typed.total)})`);
  for (const u of typed.untyped) lines.push(`  untyped: ${u.method} ${u.path} ${u.status} ${u.media}: ${u.type}`);

  for (const [name, lint] of [['Redocly recommended', redocly], ['Spectral spectral:oas', spectral]]) {
    lines.push('');
    if (lint.error) {
      lines.push(`${name}: failed: ${lint.error}`);
      continue;
    }
    lines.push(`${name}: ${lint.errors} errors, ${lint.warnings} warnings${lint.errors + lint.warnings > 0 ? ` (${counts(lint.byRule)})` : ''}`);
    for (const p of lint.problems.filter((x) => x.severity === 'error')) lines.push(`  error ${p.rule} ${p.where}: ${p.message}`);
  }

  if (contract) {
    lines.push('');
    const kinds = Object.keys(contract.byKind).length > 0 ? `; mismatches by kind: ${counts(contract.byKind)}` : '';
    lines.push(`contract run (${contract.server}): ${contract.responses} responses, ${contract.mismatchedResponses} not as documented (${percent(contract.mismatchedResponses, contract.responses)})${kinds}`);
    lines.push(`  statuses: ${counts(contract.statuses)}`);
    for (const m of contract.mismatches) lines.push(`  ${m.method} ${m.path} ${m.status} ${m.kind}: ${m.reason} [${m.request}]`);
    for (const e of contract.errors) lines.push(`  tool: ${e}`);
    if (notes && contract.notes.length > 0) {
      lines.push(`  notes: ${contract.notes.length} requests valid by the document answered 4xx (not counted as mismatches)`);
      for (const n of contract.notes) lines.push(`  note: ${n.method} ${n.path} ${n.status}: ${n.reason} [${n.request}]`);
    }
  } else {
    lines.push('', 'contract run: skipped (no server: give --base URL with --document)');
  }

  lines.push('', verdict.pass ? 'verdict: every target met' : `verdict: ${verdict.failures.length} targets missed`);
  for (const f of verdict.failures) lines.push(`  - ${f}`);
  return lines;
}

module.exports = { summary, percent };
