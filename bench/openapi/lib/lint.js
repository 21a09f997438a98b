'use strict';
// The two linters, run as their own libraries run them: Redocly CLI's engine (@redocly/openapi-core, the
// `recommended` ruleset) and Spectral (@stoplight/spectral-core with the `spectral:oas` ruleset, whose default
// is its recommended rules). Each gives `{ errors, warnings, byRule: { 'error rule-id': n }, problems }`.

/**
 * Counts of `problems` (`{ rule, severity, message, where }`) by severity and by `severity rule`.
 * @param {{ rule: string, severity: string, message: string, where: string }[]} problems
 */
function tally(problems) {
  const byRule = {};
  for (const p of problems) byRule[`${p.severity} ${p.rule}`] = (byRule[`${p.severity} ${p.rule}`] ?? 0) + 1;
  return {
    errors: problems.filter((p) => p.severity === 'error').length,
    warnings: problems.filter((p) => p.severity === 'warn').length,
    byRule,
    problems,
  };
}

/**
 * Redocly's `recommended` rules over `doc` (lintFromString on the JSON text, no config file read).
 * @example const { errors, byRule } = await redocly(doc); // byRule: { 'error security-defined': 19 }
 */
async function redocly(doc) {
  const { createConfig, lintFromString } = await import('@redocly/openapi-core');
  const config = await createConfig({ extends: ['recommended'] });
  const found = await lintFromString({ source: JSON.stringify(doc, null, 2), absoluteRef: '/openapi.json', config });
  return tally(
    found
      .filter((p) => p.severity === 'error' || p.severity === 'warn')
      .map((p) => ({ rule: p.ruleId, severity: p.severity, message: p.message, where: p.location?.[0]?.pointer ?? '' })),
  );
}

const SPECTRAL_SEVERITY = ['error', 'warn', 'info', 'hint'];

/**
 * Spectral's `spectral:oas` ruleset over `doc`.
 * @example const { errors, byRule } = await spectral(doc); // byRule: { 'warn operation-description': 19 }
 */
async function spectral(doc) {
  const { Spectral, Document } = require('@stoplight/spectral-core');
  const Parsers = require('@stoplight/spectral-parsers');
  const { oas } = require('@stoplight/spectral-rulesets');
  const linter = new Spectral();
  linter.setRuleset({ extends: [[/** @type {any} */ (oas), 'recommended']] });
  const found = await linter.run(new Document(JSON.stringify(doc, null, 2), Parsers.Json, '/openapi.json'));
  return tally(
    found
      .map((r) => ({ rule: String(r.code), severity: SPECTRAL_SEVERITY[r.severity], message: r.message, where: `#/${r.path.join('/')}` }))
      .filter((p) => p.severity === 'error' || p.severity === 'warn'),
  );
}

module.exports = { redocly, spectral };
