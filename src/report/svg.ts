/**
 * Charts as static SVG, generated when the report is built: no chart runtime at view
 * time, readable offline. Colours come from CSS classes (`s1`, `s2`, `axis`, …) defined
 * by the page for both the light and the dark theme.
 */
import { escapeHtml, fmt1 } from "./html.js";

const FONT = 12;

/** Width a label needs at the chart font (a generous average glyph width, so labels never clip). */
function textWidth(s: string): number {
  return Math.ceil(s.length * 7.2);
}

/** The left margin that fits every row label. */
function leftFor(labels: readonly string[]): number {
  return Math.max(120, 16 + Math.max(0, ...labels.map(textWidth)));
}

/**
 * Spread label positions so none overlap: sorted by wanted y, each at least `gap` below
 * the previous, then the run pulled back up if it passes `bottom`. Returns y per input index.
 */
function spread(wanted: readonly number[], gap: number, top: number, bottom: number): number[] {
  const order = wanted.map((y, i) => [y, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const ys = order.map(([y]) => y);
  for (let k = 1; k < ys.length; k++) ys[k] = Math.max(ys[k], ys[k - 1] + gap);
  const over = ys.length ? ys[ys.length - 1] - bottom : 0;
  if (over > 0) for (let k = 0; k < ys.length; k++) ys[k] -= over;
  for (let k = 0; k < ys.length; k++) ys[k] = Math.max(ys[k], top + k * gap);
  const out = new Array<number>(wanted.length);
  order.forEach(([, i], k) => (out[i] = ys[k]));
  return out;
}

function text(x: number, y: number, s: string, attrs = ""): string {
  return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}"${attrs ? " " + attrs : ""}>${escapeHtml(s)}</text>`;
}

/** A linear scale from a domain to a pixel range. */
function scale(d0: number, d1: number, r0: number, r1: number): (v: number) => number {
  return (v) => r0 + ((v - d0) / (d1 - d0 || 1)) * (r1 - r0);
}

/** Ranks (1 = best), ties sharing the better rank, in input order. */
export function ranks(values: readonly number[]): number[] {
  return values.map((v) => 1 + values.filter((w) => w > v).length);
}

/** The rank-reversal figure's titles, its two axes, the grid of tens between them, and the chance mark. */
function rankReversalAxes(xl: number, xr: number, top: number, bottom: number, lo: number, hi: number, y: (v: number) => number): string[] {
  const parts: string[] = [];
  parts.push(text(xl, 20, "Official raw (%)", 'class="label" text-anchor="middle" font-weight="600"'));
  parts.push(text(xl, 36, "BFCL's pass rate on the should-ask items", 'class="tick-label" text-anchor="middle"'));
  parts.push(text(xr, 20, "Decision accuracy (%)", 'class="label" text-anchor="middle" font-weight="600"'));
  parts.push(text(xr, 36, "on the same items, from the twin pairs", 'class="tick-label" text-anchor="middle"'));
  for (const x of [xl, xr]) parts.push(`<line class="axis" x1="${x}" y1="${top}" x2="${x}" y2="${bottom}"/>`);
  for (let t = lo; t <= hi; t += 10) {
    parts.push(`<line class="grid" x1="${xl}" y1="${y(t).toFixed(1)}" x2="${xr}" y2="${y(t).toFixed(1)}"/>`);
    parts.push(text((xl + xr) / 2, y(t) + 4, String(t), 'class="tick-label halo" text-anchor="middle" font-size="10"'));
  }
  parts.push(`<line class="chance" x1="${xr - 50}" y1="${y(50).toFixed(1)}" x2="${xr}" y2="${y(50).toFixed(1)}"/>`);
  parts.push(text(xr - 6, y(50) + 15, "chance (50)", 'class="tick-label halo" text-anchor="end"'));
  return parts;
}

/**
 * The rank-reversal figure (the paper's Figure 1b): each model's official raw on the
 * should-ask items (left axis) joined to its decision accuracy on the same items (right
 * axis), both in percent on one scale. Crossing lines are rank reversals; the dashed
 * mark on the right axis is chance (50). Labels are spread apart and tied to their dot
 * by a thin leader line, so close values stay readable.
 */
export function rankReversalSvg(models: readonly { name: string; official: number; decision: number }[]): string {
  const offR = ranks(models.map((m) => m.official));
  const decR = ranks(models.map((m) => m.decision));
  const leftLabels = models.map((m, i) => `${m.name}  ${fmt1(m.official)}  #${offR[i]}`);
  const rightLabels = models.map((m, i) => `#${decR[i]}  ${fmt1(m.decision)}  ${m.name}`);
  const lw = Math.max(0, ...leftLabels.map(textWidth));
  const rw = Math.max(0, ...rightLabels.map(textWidth));
  const gap = 16;
  const top = 56;
  const h = Math.max(300, top + 40 + models.length * gap * 2);
  const bottom = h - 36;
  const xl = lw + 60;
  const xr = xl + 300;
  const w = xr + rw + 60;
  const all = models.flatMap((m) => [m.official, m.decision]).concat([50]);
  const lo = Math.max(0, Math.floor(Math.min(...all) / 10) * 10);
  const hi = Math.min(100, Math.ceil(Math.max(...all) / 10) * 10);
  const y = scale(lo, hi, bottom, top);
  const parts = rankReversalAxes(xl, xr, top, bottom, lo, hi, y);
  const ly = spread(
    models.map((m) => y(m.official)),
    gap,
    top,
    bottom,
  );
  const ry = spread(
    models.map((m) => y(m.decision)),
    gap,
    top,
    bottom,
  );
  models.forEach((m, i) => {
    const cls = `s${(i % 8) + 1}`;
    const yo = y(m.official);
    const yd = y(m.decision);
    parts.push(
      `<line class="series ${cls}" x1="${xl}" y1="${yo.toFixed(1)}" x2="${xr}" y2="${yd.toFixed(1)}"><title>${escapeHtml(`${m.name}: official ${fmt1(m.official)} (#${offR[i]}), decision ${fmt1(m.decision)} (#${decR[i]})`)}</title></line>`,
    );
    parts.push(`<circle class="dot ${cls}" cx="${xl}" cy="${yo.toFixed(1)}" r="4"/>`);
    parts.push(`<circle class="dot ${cls}" cx="${xr}" cy="${yd.toFixed(1)}" r="4"/>`);
    parts.push(
      `<polyline class="leader ${cls}" points="${xl - 5},${yo.toFixed(1)} ${xl - 22},${ly[i].toFixed(1)} ${xl - 28},${ly[i].toFixed(1)}"/>`,
    );
    parts.push(
      `<polyline class="leader ${cls}" points="${xr + 5},${yd.toFixed(1)} ${xr + 22},${ry[i].toFixed(1)} ${xr + 28},${ry[i].toFixed(1)}"/>`,
    );
    parts.push(text(xl - 32, ly[i] + 4, leftLabels[i], `class="series-label ${cls}" text-anchor="end"`));
    parts.push(text(xr + 32, ry[i] + 4, rightLabels[i], `class="series-label ${cls}"`));
  });
  return svg(w, h, parts, "Official raw against decision accuracy on the same items");
}

/**
 * Grouped horizontal bars: one group per row, one bar per series, 0–100 with a chance line at 50.
 * A row with no value at all shows its `empty` text, so a blank row never reads as zero.
 */
export function groupedBarsSvg(
  rows: readonly { label: string; values: readonly (number | null)[]; empty?: string }[],
  series: readonly string[],
  opts: { title: string; axisLabel: string; chance?: number; max?: number } = { title: "", axisLabel: "%" },
): string {
  const barH = 14;
  const gap = 10;
  const left = leftFor(rows.map((r) => r.label));
  const right = left + 420;
  const groupH = series.length * barH + gap;
  const top = 44;
  const h = top + rows.length * groupH + 44;
  const x = scale(0, opts.max ?? 100, left, right);
  const parts: string[] = [];
  let lx = left;
  series.forEach((s, i) => {
    parts.push(`<rect class="bar s${i + 1}" x="${lx}" y="8" width="12" height="12"/>`);
    parts.push(text(lx + 18, 18, s, 'class="legend"'));
    lx += 18 + textWidth(s) + 24;
  });
  for (let t = 0; t <= (opts.max ?? 100); t += 10) {
    parts.push(`<line class="grid" x1="${x(t).toFixed(1)}" y1="${top - 4}" x2="${x(t).toFixed(1)}" y2="${h - 36}"/>`);
    parts.push(text(x(t), h - 22, String(t), 'class="tick-label" text-anchor="middle"'));
  }
  parts.push(text((left + right) / 2, h - 6, opts.axisLabel, 'class="label" text-anchor="middle"'));
  rows.forEach((r, gi) => {
    const gy = top + gi * groupH;
    parts.push(text(left - 8, gy + (series.length * barH) / 2 + 4, r.label, 'class="row-label" text-anchor="end"'));
    if (r.empty !== undefined && r.values.every((v) => v === null))
      parts.push(text(left + 6, gy + (series.length * barH) / 2 + 4, r.empty, 'class="value-label"'));
    r.values.forEach((v, si) => {
      if (v === null) return;
      const by = gy + si * barH;
      parts.push(
        `<rect class="bar s${si + 1}" x="${left}" y="${by}" width="${Math.max(0, x(v) - left).toFixed(1)}" height="${barH - 2}"><title>${escapeHtml(`${r.label} — ${series[si]}: ${fmt1(v)}`)}</title></rect>`,
      );
      parts.push(text(x(v) + 4, by + barH - 4, fmt1(v), 'class="value-label"'));
    });
  });
  if (opts.chance !== undefined) {
    parts.push(`<line class="chance" x1="${x(opts.chance).toFixed(1)}" y1="${top - 4}" x2="${x(opts.chance).toFixed(1)}" y2="${h - 36}"/>`);
  }
  return svg(Math.max(right + 60, lx), h, parts, opts.title);
}

/** Stacked horizontal bars of counts (e.g. where held-back items are lost). */
export function stackedBarsSvg(
  rows: readonly { label: string; values: readonly number[] }[],
  series: readonly string[],
  title: string,
  axisLabel = "held-back should-ask items that BFCL fails (count; total at the end of each bar)",
): string {
  const left = leftFor(rows.map((r) => r.label));
  const right = left + 420;
  const colW = 30 + Math.max(0, ...series.map(textWidth));
  const barH = 18;
  const top = 30 + 18 * Math.ceil(series.length / 2);
  const h = top + rows.length * (barH + 8) + 30;
  const max = Math.max(1, ...rows.map((r) => r.values.reduce((a, b) => a + b, 0)));
  const x = scale(0, max, left, right);
  const parts: string[] = [];
  series.forEach((s, i) => {
    const lx = left + (i % 2) * colW;
    const ly = 8 + Math.floor(i / 2) * 18;
    parts.push(`<rect class="bar s${i + 1}" x="${lx}" y="${ly}" width="12" height="12"/>`);
    parts.push(text(lx + 18, ly + 10, s, 'class="legend"'));
  });
  rows.forEach((r, ri) => {
    const y = top + ri * (barH + 8);
    parts.push(text(left - 8, y + barH - 5, r.label, 'class="row-label" text-anchor="end"'));
    let acc = 0;
    r.values.forEach((v, si) => {
      if (v <= 0) return;
      const segW = x(acc + v) - x(acc);
      parts.push(
        `<rect class="bar s${si + 1}" x="${x(acc).toFixed(1)}" y="${y}" width="${segW.toFixed(1)}" height="${barH}"><title>${escapeHtml(`${r.label} — ${series[si]}: ${v}`)}</title></rect>`,
      );
      if (segW >= 22) parts.push(text(x(acc) + segW / 2, y + barH - 5, String(v), 'class="seg-label" text-anchor="middle"'));
      acc += v;
    });
    parts.push(text(x(acc) + 4, y + barH - 5, String(acc), 'class="value-label"'));
  });
  parts.push(text((left + right) / 2, h - 6, axisLabel, 'class="label" text-anchor="middle"'));
  return svg(Math.max(right + 60, left + 2 * colW), h, parts, title);
}

/** A dot with a horizontal interval per row (decision accuracy with its 95% interval). */
export function intervalSvg(
  rows: readonly { label: string; value: number; lo: number; hi: number }[],
  title: string,
  axisLabel: string,
): string {
  const left = leftFor(rows.map((r) => r.label));
  const right = left + 420;
  const top = 20;
  const rowH = 24;
  const h = top + rows.length * rowH + 44;
  const lo = Math.max(0, Math.floor(Math.min(50, ...rows.map((r) => r.lo)) / 10) * 10);
  const hi = Math.min(100, Math.ceil(Math.max(...rows.map((r) => r.hi), 60) / 10) * 10);
  const x = scale(lo, hi, left, right);
  const parts: string[] = [];
  for (let t = lo; t <= hi; t += 5) {
    parts.push(`<line class="grid" x1="${x(t).toFixed(1)}" y1="${top - 6}" x2="${x(t).toFixed(1)}" y2="${h - 36}"/>`);
    if (t % 10 === 0) parts.push(text(x(t), h - 22, String(t), 'class="tick-label" text-anchor="middle"'));
  }
  parts.push(`<line class="chance" x1="${x(50).toFixed(1)}" y1="${top - 6}" x2="${x(50).toFixed(1)}" y2="${h - 36}"/>`);
  rows.forEach((r, i) => {
    const y = top + i * rowH + 8;
    const cls = `s${(i % 8) + 1}`;
    parts.push(text(left - 8, y + 4, r.label, 'class="row-label" text-anchor="end"'));
    parts.push(`<line class="series ${cls}" x1="${x(r.lo).toFixed(1)}" y1="${y}" x2="${x(r.hi).toFixed(1)}" y2="${y}"/>`);
    parts.push(
      `<circle class="dot ${cls}" cx="${x(r.value).toFixed(1)}" cy="${y}" r="4"><title>${escapeHtml(`${r.label}: ${fmt1(r.value)} [${fmt1(r.lo)}, ${fmt1(r.hi)}]`)}</title></circle>`,
    );
    parts.push(text(x(r.hi) + 6, y + 4, `${fmt1(r.value)} [${fmt1(r.lo)}, ${fmt1(r.hi)}]`, 'class="value-label"'));
  });
  parts.push(text((left + right) / 2, h - 6, axisLabel, 'class="label" text-anchor="middle"'));
  return svg(right + 160, h, parts, title);
}

function svg(w: number, h: number, parts: readonly string[], title: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${escapeHtml(title)}" font-size="${FONT}">` +
    `<title>${escapeHtml(title)}</title>${parts.join("")}</svg>`
  );
}
