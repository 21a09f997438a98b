'use strict';
// Before measuring: every contender must answer the four requests correctly (status and body), or the requests
// its own `checks` list, so the numbers compare servers doing the same work.
const { ENDPOINTS } = require('../endpoints');
const { request } = require('../http-get');
const { startServer } = require('../server');

/** Resolves to the problems found (empty when the contender is correct). */
async function checkContender(contender, pin) {
  let server;
  try {
    server = await startServer(contender, pin, { readyPath: contender.readyPath });
  } catch (error) {
    return [String(error instanceof Error ? error.message : error).split('\n').slice(0, 6).join('\n')];
  }
  const problems = [];
  try {
    for (const endpoint of contender.checks ?? ENDPOINTS) {
      const answer = await request(server.port, endpoint);
      const ok = endpoint.status.includes(answer.status) && answer.json !== undefined && endpoint.check(answer.json);
      if (!ok) problems.push(`${endpoint.label}: got ${answer.status} ${answer.text.slice(0, 200)}`);
    }
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
  } finally {
    await server.stop();
  }
  return problems;
}

/** Checks every contender; returns `{ passed, leftOut: [{ id, reason }] }`. */
async function checkAll(contenders, pin, log) {
  const passed = [];
  const leftOut = [];
  for (const contender of contenders) {
    const problems = await checkContender(contender, pin);
    if (problems.length === 0) passed.push(contender);
    else {
      leftOut.push({ id: contender.id, reason: problems.join('; ') });
      log(`  ${contender.id}: left out, wrong answers:\n    ${problems.join('\n    ')}`);
    }
  }
  return { passed, leftOut };
}

module.exports = { checkAll, checkContender };
