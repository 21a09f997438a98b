'use strict';
// Summaries of repeated measurements.

function median(values) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** `{ median, min, max, n }` of a list of numbers. */
function summarize(values) {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), n: values.length };
}

/** `a / b`, or NaN when either is missing. */
function ratio(a, b) {
  return Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? a / b : NaN;
}

/** The least-squares slope of `ys` against `xs` (NaN with fewer than two points). */
function slope(xs, ys) {
  const n = xs.length;
  if (n < 2) return NaN;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? NaN : num / den;
}

/** Rotates `list` by `shift` places, so each repetition starts with a different contender. */
function rotate(list, shift) {
  const k = list.length ? shift % list.length : 0;
  return [...list.slice(k), ...list.slice(0, k)];
}

module.exports = { median, summarize, ratio, rotate, slope };
