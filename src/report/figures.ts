/**
 * The report's figures as files for a paper (`report --figures DIR`): every chart cut out of the rendered HTML,
 * so a figure file is exactly what the page shows, made standalone with the light theme's colours. More in this
 * folder's README.md.
 */

/** One figure: its file name (without extension), its title, and the standalone SVG. */
export interface Figure {
  readonly name: string;
  readonly title: string;
  readonly svg: string;
}

/** The light theme's colours of the page (render.ts), by the names its charts use. */
const LIGHT = {
  fg: "#1b1f24",
  muted: "#5b6470",
  line: "#d0d7de",
  bg: "#ffffff",
  series: ["#0969da", "#d1242f", "#1a7f37", "#8250df", "#bf8700", "#0e7490", "#c2410c", "#57606a"],
};

/** The chart rules of the page with the light colours written in (no variables, no `:not`). */
const FIGURE_CSS =
  `text{fill:${LIGHT.fg};stroke:none;font-family:"DejaVu Sans",Helvetica,Arial,sans-serif}` +
  `text.halo{paint-order:stroke;stroke:${LIGHT.bg};stroke-width:4px;stroke-linejoin:round}` +
  `text.tick-label,text.value-label{fill:${LIGHT.muted}}` +
  `.axis,.tick{stroke:${LIGHT.fg}}.grid{stroke:${LIGHT.line}}.chance{stroke:${LIGHT.muted};stroke-dasharray:4 3}` +
  `.series{stroke-width:2;fill:none}.leader{fill:none;stroke-width:1;opacity:.75}text.seg-label{fill:${LIGHT.bg};font-size:11px}` +
  LIGHT.series
    .map(
      (c, i) =>
        `line.s${i + 1},polyline.s${i + 1},circle.s${i + 1},path.s${i + 1}{stroke:${c}}.dot.s${i + 1},.bar.s${i + 1}{fill:${c}}text.series-label.s${i + 1}{fill:${c}}`,
    )
    .join("");

const CHART = /<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" class="chart"([^>]*)>([\s\S]*?)<\/svg>/g;

/** Text as `escapeHtml` (html.ts) wrote it, back to itself. */
function decodeHtmlEntities(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[e]!);
}

/** A file name from a title: lower-case words joined by dashes. */
function slug(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60)
      .replace(/-+$/, "") || "figure"
  );
}

/**
 * Every chart of a rendered report page, in page order, each a standalone SVG file's text
 * named `NN-<title>` (NN its place on the page, so two panels with one title stay apart).
 */
export function reportFigures(html: string): Figure[] {
  const out: Figure[] = [];
  for (const m of html.matchAll(CHART)) {
    const attrs = m[1];
    const title = decodeHtmlEntities(/aria-label="([^"]*)"/.exec(attrs)?.[1] ?? "figure");
    const name = `${String(out.length + 1).padStart(2, "0")}-${slug(title)}`;
    const svg =
      `<?xml version="1.0" encoding="UTF-8"?>\n` +
      `<svg xmlns="http://www.w3.org/2000/svg"${attrs}>` +
      `<style>${FIGURE_CSS}</style><rect x="0" y="0" width="100%" height="100%" fill="${LIGHT.bg}"/>` +
      `${m[2]}</svg>\n`;
    out.push({ name, title, svg });
  }
  return out;
}
