/**
 * Charts as static SVG, generated when the report is built: no chart runtime at view
 * time, readable offline. Colours come from CSS classes (`s1`, `s2`, `axis`, …) defined
 * by the page for both the light and the dark theme.
 */
import { escapeHtml, fmt1 } from "./html.js";

const FONT = 12;

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

/**
 * The rank-reversal figure (the paper's Figure 1b): each model's official raw on the
 * should-ask items (left axis) joined to its decision accuracy on the same items (right
 * axis). Crossing lines are rank reversals; the dashed line marks chance (50) on the right.
 */
export function rankReversalSvg(models: readonly { name: string; official: number; decision: number }[]): string {
  const w = 640;
  const rowH = 26;
  const h = Math.max(260, 90 + models.length * rowH);
  const top = 40;
  const bottom = h - 40;
  const xl = 210;
  const xr = 430;
  const all = models.flatMap((m) => [m.official, m.decision]).concat([50]);
  const lo = Math.max(0, Math.floor(Math.min(...all) / 10) * 10);
  const hi = Math.min(100, Math.ceil(Math.max(...all) / 10) * 10);
  const y = scale(lo, hi, bottom, top);
  const offR = ranks(models.map((m) => m.official));
  const decR = ranks(models.map((m) => m.decision));
  const parts: string[] = [];
  parts.push(text(xl, 20, "Official raw (%)", 'class="label" text-anchor="middle"'));
  parts.push(text(xr, 20, "Decision accuracy (%)", 'class="label" text-anchor="middle"'));
  for (const x of [xl, xr]) parts.push(`<line class="axis" x1="${x}" y1="${top}" x2="${x}" y2="${bottom}"/>`);
  for (let t = lo; t <= hi; t += 10) {
    parts.push(`<line class="tick" x1="${xl - 4}" y1="${y(t).toFixed(1)}" x2="${xl}" y2="${y(t).toFixed(1)}"/>`);
    parts.push(text(xl - 8, y(t) + 4, String(t), 'class="tick-label" text-anchor="end"'));
    parts.push(`<line class="tick" x1="${xr}" y1="${y(t).toFixed(1)}" x2="${xr + 4}" y2="${y(t).toFixed(1)}"/>`);
    parts.push(text(xr + 8, y(t) + 4, String(t), 'class="tick-label"'));
  }
  parts.push(`<line class="chance" x1="${xr - 40}" y1="${y(50).toFixed(1)}" x2="${xr}" y2="${y(50).toFixed(1)}"/>`);
  parts.push(text(xr - 44, y(50) + 4, "chance", 'class="tick-label" text-anchor="end"'));
  models.forEach((m, i) => {
    const cls = `s${(i % 8) + 1}`;
    parts.push(`<line class="series ${cls}" x1="${xl}" y1="${y(m.official).toFixed(1)}" x2="${xr}" y2="${y(m.decision).toFixed(1)}"/>`);
    parts.push(`<circle class="dot ${cls}" cx="${xl}" cy="${y(m.official).toFixed(1)}" r="4"/>`);
    parts.push(`<circle class="dot ${cls}" cx="${xr}" cy="${y(m.decision).toFixed(1)}" r="4"/>`);
    parts.push(text(xl - 34, y(m.official) + 4, `#${offR[i]} ${m.name} ${fmt1(m.official)}`, `class="series-label ${cls}" text-anchor="end"`));
    parts.push(text(xr + 34, y(m.decision) + 4, `${fmt1(m.decision)} #${decR[i]} ${m.name}`, `class="series-label ${cls}"`));
  });
  return svg(w + 260, h, parts, "Official raw against decision accuracy on the same items", -130);
}

/** Grouped horizontal bars: one group per row, one bar per series, 0–100 with a chance line at 50. */
export function groupedBarsSvg(
  rows: readonly { label: string; values: readonly (number | null)[] }[],
  series: readonly string[],
  opts: { title: string; axisLabel: string; chance?: number; max?: number } = { title: "", axisLabel: "%" },
): string {
  const barH = 14;
  const gap = 10;
  const left = 200;
  const right = 620;
  const groupH = series.length * barH + gap;
  const top = 44;
  const h = top + rows.length * groupH + 44;
  const x = scale(0, opts.max ?? 100, left, right);
  const parts: string[] = [];
  series.forEach((s, i) => {
    parts.push(`<rect class="bar s${i + 1}" x="${left + i * 160}" y="8" width="12" height="12"/>`);
    parts.push(text(left + i * 160 + 18, 18, s, 'class="legend"'));
  });
  for (let t = 0; t <= (opts.max ?? 100); t += 10) {
    parts.push(`<line class="grid" x1="${x(t).toFixed(1)}" y1="${top - 4}" x2="${x(t).toFixed(1)}" y2="${h - 36}"/>`);
    parts.push(text(x(t), h - 22, String(t), 'class="tick-label" text-anchor="middle"'));
  }
  parts.push(text((left + right) / 2, h - 6, opts.axisLabel, 'class="label" text-anchor="middle"'));
  rows.forEach((r, gi) => {
    const gy = top + gi * groupH;
    parts.push(text(left - 8, gy + (series.length * barH) / 2 + 4, r.label, 'class="row-label" text-anchor="end"'));
    r.values.forEach((v, si) => {
      if (v === null) return;
      const by = gy + si * barH;
      parts.push(`<rect class="bar s${si + 1}" x="${left}" y="${by}" width="${Math.max(0, x(v) - left).toFixed(1)}" height="${barH - 2}"><title>${escapeHtml(`${r.label} — ${series[si]}: ${fmt1(v)}`)}</title></rect>`);
      parts.push(text(x(v) + 4, by + barH - 4, fmt1(v), 'class="value-label"'));
    });
  });
  if (opts.chance !== undefined) {
    parts.push(`<line class="chance" x1="${x(opts.chance).toFixed(1)}" y1="${top - 4}" x2="${x(opts.chance).toFixed(1)}" y2="${h - 36}"/>`);
  }
  return svg(680, h, parts, opts.title);
}

/** Stacked horizontal bars of counts (e.g. where held-back items are lost). */
export function stackedBarsSvg(rows: readonly { label: string; values: readonly number[] }[], series: readonly string[], title: string): string {
  const left = 200;
  const right = 620;
  const barH = 18;
  const top = 30 + 18 * Math.ceil(series.length / 2);
  const h = top + rows.length * (barH + 8) + 30;
  const max = Math.max(1, ...rows.map((r) => r.values.reduce((a, b) => a + b, 0)));
  const x = scale(0, max, left, right);
  const parts: string[] = [];
  series.forEach((s, i) => {
    const lx = left + (i % 2) * 220;
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
      parts.push(`<rect class="bar s${si + 1}" x="${x(acc).toFixed(1)}" y="${y}" width="${(x(acc + v) - x(acc)).toFixed(1)}" height="${barH}"><title>${escapeHtml(`${r.label} — ${series[si]}: ${v}`)}</title></rect>`);
      acc += v;
    });
    parts.push(text(x(acc) + 4, y + barH - 5, String(acc), 'class="value-label"'));
  });
  parts.push(text((left + right) / 2, h - 6, "held-back should-ask items failed officially (count)", 'class="label" text-anchor="middle"'));
  return svg(680, h, parts, title);
}

/** A dot with a horizontal interval per row (decision accuracy with its 95% interval). */
export function intervalSvg(rows: readonly { label: string; value: number; lo: number; hi: number }[], title: string, axisLabel: string): string {
  const left = 200;
  const right = 620;
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
    parts.push(`<circle class="dot ${cls}" cx="${x(r.value).toFixed(1)}" cy="${y}" r="4"><title>${escapeHtml(`${r.label}: ${fmt1(r.value)} [${fmt1(r.lo)}, ${fmt1(r.hi)}]`)}</title></circle>`);
    parts.push(text(x(r.hi) + 6, y + 4, `${fmt1(r.value)} [${fmt1(r.lo)}, ${fmt1(r.hi)}]`, 'class="value-label"'));
  });
  parts.push(text((left + right) / 2, h - 6, axisLabel, 'class="label" text-anchor="middle"'));
  return svg(700, h, parts, title);
}

function svg(w: number, h: number, parts: readonly string[], title: string, dx = 0): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="${dx} 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${escapeHtml(title)}" font-size="${FONT}">` +
    `<title>${escapeHtml(title)}</title>${parts.join("")}</svg>`
  );
}
