/**
 * `report --figures DIR` on both real gpt-oss runs: every chart of the page as a standalone
 * SVG and a PNG, and the numbers the figures draw are those `score --format json` gives for
 * the same runs.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatDecimal1 } from "../../decision/format.js";
import { rolloutRunDir } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-figures-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(argv: string[]) {
  const io = memoryIo({}, tmp);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

const runs = ["--results", rolloutRunDir("2025-11-12-main"), "--results", rolloutRunDir("2025-11-12-harmony-fixes"), "--bootstrap", "1000"];

interface ScoreJson {
  models: { model: string; numbers: { decision: number } | null; ci95: [number, number] | null }[];
  official: { models: { model: string; rawMiss: number; decision: number }[] };
}

/** The `<title>` texts of the elements of one class in an SVG. */
function titles(svg: string, element: string): string[] {
  return [...svg.matchAll(new RegExp(`<${element} class="[^"]*"[^>]*><title>([^<]*)</title>`, "g"))].map((m) =>
    m[1].replace(/&#39;/g, "'").replace(/&amp;/g, "&"),
  );
}

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(bytes: Buffer): [number, number] {
  expect([...bytes.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

describe("report --figures", () => {
  it("writes each figure as SVG and PNG, drawing score --format json's numbers for the same runs", async () => {
    const dir = join(tmp, "figures");
    mkdirSync(dir);
    const r = await run(["report", ...runs, "--out", join(tmp, "report.html"), "--figures", dir]);
    expect(r.code).toBe(1); // main's gpt-oss-20b has no headline
    const files = readdirSync(dir).sort();
    const svgs = files.filter((f) => f.endsWith(".svg"));
    expect(svgs.length).toBeGreaterThanOrEqual(4);
    expect(files.filter((f) => f.endsWith(".png"))).toEqual(svgs.map((f) => f.replace(/\.svg$/, ".png")));
    expect(r.err).toContain(`note: wrote ${dir} (${svgs.length} figures: ${svgs.length} SVG, ${svgs.length} PNG) [written]`);
    // each figure is the page's chart, standalone: its own colours, a white background, and a PNG at twice its size
    const html = readFileSync(join(tmp, "report.html"), "utf8");
    for (const f of svgs) {
      const svg = readFileSync(join(dir, f), "utf8");
      expect(svg.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      expect(svg).not.toContain("var(--");
      const body = svg.slice(svg.indexOf("<title>"), svg.lastIndexOf("</svg>"));
      expect(html.includes(body)).toBe(true);
      const [w, h] = [Number(/ width="(\d+)"/.exec(svg)![1]), Number(/ height="(\d+)"/.exec(svg)![1])];
      expect(pngSize(readFileSync(join(dir, f.replace(/\.svg$/, ".png"))))).toEqual([2 * w, 2 * h]);
    }

    const score = JSON.parse((await run(["score", ...runs, "--format", "json"])).out) as ScoreJson;
    const shown = score.models.filter((m) => m.numbers !== null);
    expect(shown).toHaveLength(3);
    // the rank-reversal figure: official raw and decision of each model with a headline, as score gives them
    const reversal = readFileSync(
      join(
        dir,
        svgs.find((f) => f.includes("official-raw-against-decision"))!,
      ),
      "utf8",
    );
    const lines = titles(reversal, "line");
    expect(lines).toHaveLength(3);
    for (const m of shown) {
      const o = score.official.models.find((x) => x.model === m.model)!;
      expect(lines.find((l) => l.startsWith(`${m.model}: `))).toMatch(
        new RegExp(
          `^${m.model}: official ${formatDecimal1(o.rawMiss)} \\(#\\d\\), decision ${formatDecimal1(m.numbers!.decision)} \\(#\\d\\)$`,
        ),
      );
    }
    // the category figure: a model with no headline gets a labelled empty row, never a blank one
    const byCategory = readFileSync(
      join(
        dir,
        svgs.find((f) => f.includes("decision-accuracy-by-category"))!,
      ),
      "utf8",
    );
    const unshown = score.models.filter((m) => m.numbers === null);
    expect(unshown.length).toBeGreaterThan(0);
    expect(byCategory.split("no headline (see Table 1)").length - 1).toBe(unshown.length);
    // the interval figure: each decision and its 95% interval, the no-headline model absent
    const interval = svgs.map((f) => readFileSync(join(dir, f), "utf8")).find((s) => titles(s, "circle").some((t) => / \[\d/.test(t)))!;
    const dots = titles(interval, "circle");
    expect(dots.map((t) => t.split(": ")[0]).sort()).toEqual(shown.map((m) => m.model).sort());
    for (const m of shown) {
      expect(dots).toContain(
        `${m.model}: ${formatDecimal1(m.numbers!.decision)} [${formatDecimal1(m.ci95![0])}, ${formatDecimal1(m.ci95![1])}]`,
      );
    }
  }, 300_000);

  it("a folder that is not there is refused before anything is read", async () => {
    const r = await run(["report", ...runs, "--out", join(tmp, "x.html"), "--figures", join(tmp, "nope")]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`error: --figures ${join(tmp, "nope")}: no such folder [bad-argument]\n`);
  }, 60_000);
});
