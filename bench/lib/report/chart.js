'use strict';
// bench/results.svg: one panel per endpoint, a horizontal bar per contender (median req/s, min–max as a
// whisker), labelled with the ratio to raw node:http. Plain SVG text, no browser or library involved.
const { ENDPOINTS } = require('../endpoints');
const { ratio } = require('../stats');

const WIDTH = 960;
const LABEL = 210;
const BAR_AREA = 560;
const ROW = 22;
const PANEL_GAP = 34;
const COLORS = { raw: '#9e9e9e', trellis: '#2e7d32', 'trellis-sample': '#43a047', 'trellis-run': '#66bb6a', 'trellis-run-quiet': '#81c784', other: '#5c7cba' };

const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const int = (n) => Math.round(n).toLocaleString('en-US');

function renderChart(results) {
  const contenders = results.contenders.filter((c) => results.throughput[c.id]);
  const max = Math.max(...contenders.flatMap((c) => ENDPOINTS.map((e) => results.throughput[c.id][e.id]?.rps.max ?? 0)));
  const scale = (v) => (max > 0 ? (v / max) * BAR_AREA : 0);
  const parts = [];
  let y = 48;
  for (const endpoint of ENDPOINTS) {
    parts.push(`<text x="16" y="${y}" class="panel">${escape(endpoint.label)}</text>`);
    y += 10;
    const raw = results.throughput.raw?.[endpoint.id]?.rps.median;
    for (const c of contenders) {
      const cell = results.throughput[c.id][endpoint.id];
      if (!cell) continue;
      const { median, min, max: high } = cell.rps;
      const color = COLORS[c.id] ?? COLORS.other;
      const r = ratio(median, raw);
      const note = `${int(median)} req/s${Number.isFinite(r) && c.id !== 'raw' ? ` · ${r.toFixed(2)}× raw` : ''}`;
      const mid = y + ROW / 2;
      parts.push(
        `<text x="${LABEL - 8}" y="${mid + 4}" class="label" text-anchor="end">${escape(c.label)}</text>`,
        `<rect x="${LABEL}" y="${y + 3}" width="${scale(median).toFixed(1)}" height="${ROW - 6}" fill="${color}"/>`,
        `<line x1="${(LABEL + scale(min)).toFixed(1)}" x2="${(LABEL + scale(high)).toFixed(1)}" y1="${mid}" y2="${mid}" class="whisker"/>`,
        `<text x="${(LABEL + scale(Math.max(median, high)) + 6).toFixed(1)}" y="${mid + 4}" class="value">${escape(note)}</text>`,
      );
      y += ROW;
    }
    y += PANEL_GAP;
  }
  const title = `req/s per contender and endpoint (median of ${results.settings.repetitions}, whisker = min–max), ${results.date.slice(0, 10)}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${y}" viewBox="0 0 ${WIDTH} ${y}" font-family="system-ui, sans-serif">`,
    '<style>.title{font-size:15px;font-weight:600}.panel{font-size:13px;font-weight:600}.label,.value{font-size:12px}.whisker{stroke:#222;stroke-width:1}</style>',
    `<rect width="${WIDTH}" height="${y}" fill="#fff"/>`,
    `<text x="16" y="24" class="title">${escape(title)}</text>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}

module.exports = { renderChart };
