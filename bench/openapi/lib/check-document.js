'use strict';
// Every check of one document: openapi-typescript's typed success responses, Redocly recommended, Spectral
// spectral:oas, and (given a server) the contract run. `verdict` sums them up for the summary and `--strict`.
const { typedResponses } = require('./typed');
const { redocly, spectral } = require('./lint');
const { contractRun } = require('./contract/run');
const { operations } = require('./document');

/**
 * Runs the checks of `doc`; `base` (a server URL) adds the contract run, `token` is what secured routes get.
 * @example const report = await checkDocument(doc, { base: 'http://127.0.0.1:8000', token: 'secret' });
 * @param {any} doc
 * @param {{ base?: string, token?: string, basic?: string }} [options]
 */
async function checkDocument(doc, { base, token, basic } = {}) {
  const report = {
    document: { openapi: doc.openapi, title: doc.info?.title, operations: operations(doc).length },
    typed: await typedResponses(doc),
    redocly: await settle(() => redocly(doc)),
    spectral: await settle(() => spectral(doc)),
    contract: base ? await contractRun(doc, base, { token, basic }) : undefined,
  };
  return { ...report, verdict: verdict(report) };
}

/** A check's result, or `{ error }` when the library itself threw. */
async function settle(run) {
  try {
    return await run();
  } catch (error) {
    return { errors: 0, warnings: 0, byRule: {}, problems: [], error: `${/** @type {any} */ (error).message}` };
  }
}

/** `{ pass, failures: [text] }`: the targets (100 % typed, 0 lint errors, 0 mismatches) and tool errors. */
function verdict(report) {
  const failures = [];
  const { typed, redocly: red, spectral: spec, contract } = report;
  if (typed.error) failures.push(typed.error);
  else if (typed.typed < typed.total) failures.push(`openapi-typescript: ${typed.total - typed.typed} of ${typed.total} success responses untyped`);
  for (const [name, lint] of [['Redocly', red], ['Spectral', spec]]) {
    if (lint.error) failures.push(`${name} failed: ${lint.error}`);
    else if (lint.errors > 0) failures.push(`${name}: ${lint.errors} errors`);
  }
  if (contract) {
    if (contract.mismatchedResponses > 0) failures.push(`contract run: ${contract.mismatchedResponses} of ${contract.responses} responses not as documented`);
    if (contract.errors.length > 0) failures.push(`contract run: ${contract.errors.length} requests without an answer or not generated`);
  }
  return { pass: failures.length === 0, failures };
}

module.exports = { checkDocument };
