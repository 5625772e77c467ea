/**
 * The report in a real browser: headless Chromium driven by playwright-core, one launch for every check, on a
 * report of both gpt-oss runs, checked against `twinscore score`'s JSON. No Chromium that starts is a failure,
 * never a skip. More in this folder's README.md.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { formatDecimal1 } from "../decision/format.js";
import { memoryIo } from "../cli/io.js";
import { runCli } from "../cli/program.js";
import { launchHeadless, type HeadlessBrowser } from "../testing/chromium.js";
import { hostileText, plantHostileText, type PlantedRun } from "../testing/report-fixture.js";
import { bfclDataDir, projectRoot, rolloutRunDir, rolloutRuns } from "../testing/shared.js";

// The node types carry no DOM: browser-side code is plain attribute calls on the element.
const openDetails = (d: { setAttribute(name: string, value: string): void }) => d.setAttribute("open", "");
const closeDetails = (d: { removeAttribute(name: string): void }) => d.removeAttribute("open");

const [main, fixes] = rolloutRuns;

async function run(argv: string[]) {
  const io = memoryIo({}, projectRoot);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

interface ScoreJson {
  models: { model: string; numbers: Record<string, number> }[];
}

const tmp = mkdtempSync(join(tmpdir(), "twinscore-browser-"));
const shots = join(tmp, "shots");
let browser: HeadlessBrowser | undefined;
let page: Page;
let planted: PlantedRun;
const pageErrors: string[] = [];
const expected = new Map<string, string>();
let perItem: { model: string; category: string; act: number; hold: number; baseCompleted: number; missCompleted: number }[] = [];

beforeAll(async () => {
  planted = plantHostileText(tmp, main, "openai_gpt-oss-120b");
  const out = join(tmp, "report.html");
  const r = await run([
    "report",
    "--reading",
    "release",
    "--results",
    planted.runDir,
    "--scores",
    planted.runDir,
    "--results",
    rolloutRunDir(fixes),
    "--scores",
    rolloutRunDir(fixes),
    "--compare",
    main,
    fixes,
    "--bfcl-data",
    bfclDataDir(),
    "--out",
    out,
  ]);
  if (r.code !== 0) throw new Error(`twinscore report failed: ${r.err}`);
  // What the table must show: `score --format json` of each run (the planted copy for main).
  for (const [name, dir] of [
    [main, planted.runDir],
    [fixes, rolloutRunDir(fixes)],
  ] as const) {
    // the point numbers only: no resamples (the intervals are the report's own, not compared here)
    const s = await run(["score", "--reading", "release", "--results", dir, "--bootstrap", "0", "--format", "json"]);
    for (const m of (JSON.parse(s.out) as ScoreJson).models) {
      for (const [col, key] of [
        ["n", "n"],
        ["act", "act"],
        ["hold", "hold"],
        ["decision", "decision"],
        ["hold_c", "holdCredited"],
        ["dec_c", "decisionCredited"],
      ]) {
        expected.set(`${name}/${m.model}|${col}`, key === "n" ? String(m.numbers.n) : formatDecimal1(m.numbers[key]));
      }
    }
  }
  const csv = join(tmp, "per-item.csv");
  const p = await run([
    "score",
    "--reading",
    "release",
    "--results",
    planted.runDir,
    "--model",
    "openai_gpt-oss-120b",
    "--per-item",
    csv,
    "--bfcl-data",
    bfclDataDir(),
    "--bootstrap",
    "0",
    "--format",
    "json",
  ]);
  if (p.code !== 0) throw new Error(p.err);
  const [header, ...rows] = readFileSync(csv, "utf8").trim().split("\n");
  const cols = header.split(",");
  perItem = rows.map((line) => {
    const v = line.split(",");
    const at = (k: string) => v[cols.indexOf(k)];
    return {
      model: at("model"),
      category: at("category"),
      act: Number(at("act")),
      hold: Number(at("hold")),
      baseCompleted: Number(v[v.length - 2]),
      missCompleted: Number(v[v.length - 1]),
    };
  });

  browser = await launchHeadless({ viewport: { width: 1280, height: 900 }, colorScheme: "light" });
  page = browser.page;
  page.on("pageerror", (e) => pageErrors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") pageErrors.push(m.text());
  });
  await page.goto(pathToFileURL(out).href);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  // Keep the screenshots where a person can look at them when asked to.
  const keep = process.env.TWINSCORE_REPORT_SHOTS;
  if (keep && existsSync(shots)) {
    mkdirSync(keep, { recursive: true });
    for (const f of ["light-top.png", "light-reversal.png", "light-pair.png", "dark-top.png", "dark-reversal.png", "dark-pair.png"])
      copyFileSync(join(shots, f), join(keep, f));
  }
  rmSync(tmp, { recursive: true, force: true });
});

describe("the report in headless Chromium (file://)", () => {
  it("shows Table 1 exactly as `twinscore score --format json` prints it, for all four run/model rows", async () => {
    const cells = (await page.evaluate(
      `[...document.querySelectorAll("#table1-data [data-col]")].map((e) => [e.getAttribute("data-model") + "|" + e.getAttribute("data-col"), e.textContent])`,
    )) as [string, string][];
    const shown = new Map(cells);
    expect(expected.size).toBe(24);
    for (const [key, value] of expected) expect(shown.get(key), key).toBe(value);
    expect(shown.get(`${main}/openai_gpt-oss-120b|official_miss`)).toBe("43.9");
    expect(shown.get(`${fixes}/openai_gpt-oss-120b|official_miss`)).toBe("50.2");
    // With BFCL data the credited column is there for every row (its value is checked in report.test.ts).
    expect([...shown.keys()].filter((k) => k.endsWith("|credited"))).toHaveLength(4);
  });

  it("filters the pair browser by model, category and outcome", async () => {
    expect(await page.textContent("#f-count")).toBe("223 of 223 pairs");
    await page.selectOption("#f-model", { label: `${main}/openai_gpt-oss-120b` });
    await page.selectOption("#f-category", "miss_param");
    await page.selectOption("#f-outcome", "wrong");
    const want = perItem.filter((r) => r.category === "miss_param" && (r.act === 0 || r.hold === 0)).length;
    expect(want).toBeGreaterThan(0);
    expect(await page.locator("details.pair:not([hidden])").count()).toBe(want);
    expect(await page.textContent("#f-count")).toBe(`${want} of 223 pairs`);
    await page.selectOption("#f-outcome", "held");
    const held = perItem.filter((r) => r.category === "miss_param" && r.hold === 1).length;
    expect(await page.locator("details.pair:not([hidden])").count()).toBe(held);
    // with BFCL data: aligned = right and completed on both twins (the per-item file's completion columns)
    await page.selectOption("#f-category", "all");
    await page.selectOption("#f-outcome", "aligned");
    const aligned = perItem.filter((r) => r.act === 1 && r.hold === 1 && r.baseCompleted === 1 && r.missCompleted === 1).length;
    expect(aligned).toBeGreaterThan(0);
    expect(await page.locator("details.pair:not([hidden])").count()).toBe(aligned);
    await page.selectOption("#f-outcome", "unaligned");
    expect(await page.locator("details.pair:not([hidden])").count()).toBe(223 - aligned);
    for (const id of ["#f-model", "#f-category", "#f-outcome"]) await page.selectOption(id, "all");
    expect(await page.textContent("#f-count")).toBe("223 of 223 pairs");
  });

  it("shows only the chosen model inside an opened pair and in its marks, and every model again with all", async () => {
    const pair = page.locator(`details.pair[id="${planted.missId}"]`);
    await pair.evaluate(openDetails);
    const visible = async () => ({
      blocks: await pair.locator("div[data-m]:visible h4").allTextContents(),
      marks: await pair.locator("summary .mark:visible").count(),
    });
    const all = await visible();
    expect([all.blocks.length, all.marks]).toEqual([4, 4]);
    await page.selectOption("#f-model", { label: `${fixes}/openai_gpt-oss-120b` });
    const one = await visible();
    expect(one.marks).toBe(1);
    expect(one.blocks).toHaveLength(1);
    expect(one.blocks[0]).toMatch(new RegExp(`^${fixes}/openai_gpt-oss-120b `));
    await page.selectOption("#f-model", "all");
    expect(await visible()).toEqual(all);
    await pair.evaluate(closeDetails);
  });

  it(`shows the text planted in ${"openai_gpt-oss-120b"}'s output literally and runs none of it`, async () => {
    const pair = page.locator(`details.pair[id="${planted.missId}"]`);
    await pair.evaluate(openDetails);
    const texts = await pair.locator("pre.text").allTextContents();
    expect(texts).toContain(hostileText);
    expect(await page.evaluate(`[typeof window.pwned, typeof window.pwned2]`)).toEqual(["undefined", "undefined"]);
    expect(await page.locator("details.pair img, details.pair script, details.pair b").count()).toBe(0);
    expect(await page.locator("script").count()).toBe(1);
    expect(pageErrors).toEqual([]);
    await pair.evaluate(closeDetails);
  });

  it("keeps every chart label inside its chart", async () => {
    const outside = await page.evaluate(
      `[...document.querySelectorAll("svg.chart")].flatMap((svg) => {
        const vb = svg.viewBox.baseVal;
        return [...svg.querySelectorAll("text")]
          .map((t) => ({ t: t.textContent, b: t.getBBox() }))
          .filter(({ b }) => b.x < vb.x - 0.5 || b.y < vb.y - 0.5 || b.x + b.width > vb.x + vb.width + 0.5 || b.y + b.height > vb.y + vb.height + 0.5)
          .map(({ t }) => t);
      })`,
    );
    expect(await page.locator("svg.chart").count()).toBeGreaterThan(8);
    expect(outside).toEqual([]);
  });

  it("with --trials-of, the trials filter keeps exactly the pairs whose outcome changed between the trials (score --trials-of's)", async () => {
    const trials = rolloutRuns.map((r) => join(rolloutRunDir(r), "result", "openai_gpt-oss-120b"));
    const score = await run(["score", "--trials-of", ...trials, "--bootstrap", "0", "--format", "json"]);
    const rows = (JSON.parse(score.out) as { trials: { pairRows: { missId: string; flipRate: number | null }[] } }).trials.pairRows;
    const unstable = rows.filter((p) => (p.flipRate ?? 0) > 0).map((p) => p.missId);
    const out = join(tmp, "trials.html");
    const r = await run(["report", "--trials-of", ...trials, "--bootstrap", "0", "--out", out]);
    expect(r.code, r.err).toBe(0);
    const trialsPage = await browser!.context.newPage();
    try {
      await trialsPage.goto(pathToFileURL(out).href);
      expect(await trialsPage.textContent("#f-count")).toBe("223 of 223 pairs");
      await trialsPage.selectOption("#f-trials", "unstable");
      expect((await trialsPage.locator("details.pair:not([hidden])").evaluateAll((ps) => ps.map((p) => p.id))).sort()).toEqual(
        [...unstable].sort(),
      );
      expect(await trialsPage.textContent("#f-count")).toBe(`${unstable.length} of 223 pairs`);
      await trialsPage.selectOption("#f-trials", "all");
      expect(await trialsPage.textContent("#f-count")).toBe("223 of 223 pairs");
    } finally {
      await trialsPage.close();
    }
  }, 120_000);

  it("switches to the dark theme and back, with screenshots of both", async () => {
    mkdirSync(shots, { recursive: true });
    const bg = () => page.evaluate(`getComputedStyle(document.body).backgroundColor`);
    expect(await bg()).toBe("rgb(255, 255, 255)");
    for (const theme of ["light", "dark"] as const) {
      if (theme === "dark") {
        await page.click("#theme");
        expect(await page.getAttribute("html", "data-theme")).toBe("dark");
        expect(await bg()).toBe("rgb(13, 17, 23)");
      }
      await page.evaluate(`window.scrollTo(0, 0)`);
      await page.screenshot({ path: join(shots, `${theme}-top.png`) });
      await page.locator("#reversal + p + svg.chart").screenshot({ path: join(shots, `${theme}-reversal.png`) });
      const pair = page.locator(`details.pair[id="${planted.missId}"]`);
      await pair.evaluate(openDetails);
      await pair.screenshot({ path: join(shots, `${theme}-pair.png`) });
      await pair.evaluate(closeDetails);
    }
    await page.click("#theme");
    expect(await page.getAttribute("html", "data-theme")).toBe("light");
    for (const f of ["light-top.png", "light-reversal.png", "light-pair.png", "dark-top.png", "dark-reversal.png", "dark-pair.png"]) {
      const bytes = readFileSync(join(shots, f));
      expect(bytes.subarray(1, 4).toString()).toBe("PNG");
      expect(statSync(join(shots, f)).size).toBeGreaterThan(5_000);
    }
  });
});
