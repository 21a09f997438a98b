'use strict';
// Reads a V8 .cpuprofile and lists where the time goes: self time per function and inclusive time per
// function (each function counted once per stack, so recursion does not inflate it).
const path = require('node:path');

function frameName(node, root) {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url ? path.relative(root, url.replace(/^file:\/\//, '')) : '';
  return `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
}

/** `{ totalMs, self: [{ name, ms, pct }], inclusive: [...] }`, largest first. */
function summarizeProfile(profile, root, top = 25) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const interval = new Map();
  profile.samples.forEach((id, i) => interval.set(id, (interval.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...interval.values()].reduce((a, b) => a + b, 0);
  const self = new Map();
  const inclusive = new Map();
  for (const [id, micros] of interval) {
    const name = frameName(byId.get(id), root);
    self.set(name, (self.get(name) ?? 0) + micros);
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const n = frameName(byId.get(cur), root);
      if (seen.has(n)) continue;
      seen.add(n);
      inclusive.set(n, (inclusive.get(n) ?? 0) + micros);
    }
  }
  const list = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => ({ name, ms: micros / 1000, pct: (100 * micros) / total }));
  return { totalMs: total / 1000, self: list(self), inclusive: list(inclusive) };
}

module.exports = { summarizeProfile };
