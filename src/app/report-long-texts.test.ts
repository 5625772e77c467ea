import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { promptingDecoder, fcDecoder } from "../bfcl/decode/index.js";
import type { RecordedRollout } from "../bfcl/results.js";
import { committedManifestSource } from "../io/rollout-data.js";
import { boundedText, REPORT_TEXT_LIMIT } from "../report/bounded-text.js";
import { readForTest } from "../testing/read-models.js";
import { rolloutRunDir } from "../testing/shared.js";
import { longTextCutter, withTextStepsCut } from "./long-texts.js";
import { buildReport } from "./report.js";

const LONG = 3_000_000;
const MARK = `[cut by the report: ${LONG - REPORT_TEXT_LIMIT} more characters of ${LONG}; the whole text is in the result file]`;
const tmp = mkdtempSync(join(tmpdir(), "twinscore-long-texts-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * A copy of a real model (gpt-oss-120b of the main run) whose first `lines` miss_param
 * lines of pairs start every turn with a text step of 3,000,000 characters; with `mode`,
 * every line records it as `twinscore run`'s mode.
 */
function longTextRun(lines: number, mode?: string): { dir: string; ids: string[] } {
  const paired = new Set(
    committedManifestSource()
      .all()
      .get("v4")!
      .pairs.map((p) => p.missId),
  );
  const source = join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b", "multi_turn");
  const folder = join(tmp, mode ?? "run", "result", "long_texts", "multi_turn");
  mkdirSync(folder, { recursive: true });
  const text = "y".repeat(LONG);
  const ids: string[] = [];
  for (const c of ["base", "miss_func", "miss_param"]) {
    const file = `BFCL_v4_multi_turn_${c}_result.json`;
    if (c !== "miss_param" && mode === undefined) {
      copyFileSync(join(source, file), join(folder, file));
      continue;
    }
    const out = readFileSync(join(source, file), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => {
        const v = JSON.parse(l) as { id: string; result: unknown };
        // the mode as `run` writes it, last on the line
        const withMode = (line: string) =>
          mode === undefined ? line : `${line.slice(0, line.lastIndexOf("}"))}, "twinscore_mode": "${mode}"}`;
        if (c !== "miss_param" || ids.length >= lines || !paired.has(v.id) || !Array.isArray(v.result)) return withMode(l);
        ids.push(v.id);
        return withMode(
          JSON.stringify({ ...v, result: v.result.map((turn: unknown) => [text, ...(Array.isArray(turn) ? turn : [turn])]) }),
        );
      });
    writeFileSync(join(folder, file), out.join("\n") + "\n");
  }
  return { dir: join(tmp, mode ?? "run"), ids };
}

describe("texts of millions of characters in a run's lines", () => {
  it("the report is written with each such text cut and marked, and its reading keeps only the cut texts", async () => {
    const { dir, ids } = longTextRun(2);
    const out = join(tmp, "report.html");
    const doc = await buildReport({ results: [dir], bootstrap: { resamples: 0 }, out });
    expect(doc.file).toBe(out);
    const html = readFileSync(out, "utf8");
    expect(html.split(MARK).length - 1).toBeGreaterThan(0);
    expect(html).not.toContain("y".repeat(REPORT_TEXT_LIMIT + 1));
    expect(html.length).toBeLessThan(5_000_000);

    // the pairs of the long lines read as they do with the texts whole; only their anchor texts differ (cut)
    const whole = readForTest([dir]).models[0].score!.records.filter((r) => ids.includes(r.missId));
    const cut = readForTest([dir], { textLimit: REPORT_TEXT_LIMIT }).models[0].score!.records.filter((r) => ids.includes(r.missId));
    expect(whole.length).toBeGreaterThan(0);
    expect(whole.flatMap((r) => r.miss.anchorText).some((t) => t.length === LONG)).toBe(true);
    for (const r of cut) for (const t of r.miss.anchorText) expect(t.length).toBeLessThanOrEqual(REPORT_TEXT_LIMIT + MARK.length + 3);
    expect(cut.flatMap((r) => r.miss.anchorText).filter((t) => t.endsWith(MARK)).length).toBe(
      whole.flatMap((r) => r.miss.anchorText).filter((t) => t.length === LONG).length,
    );
    const decisions = (rs: typeof cut) => rs.map((r) => [r.missId, r.status, r.actedOnBase, r.actedOnMiss, r.miss.anchorSteps]);
    expect(decisions(cut)).toEqual(decisions(whole));
    expect(cut.map((r) => r.miss.anchorText)).toEqual(whole.map((r) => r.miss.anchorText.map((t) => boundedText(t))));
  }, 180_000);
});

describe("a run whose lines record a mode whose decoder is not the one its files' heads suggest", () => {
  it("is read again with its texts whole once the lines say which decoder reads them: the readings are those of the whole texts", () => {
    const { dir, ids } = longTextRun(1, "prompting");
    const read = readForTest([dir], { textLimit: REPORT_TEXT_LIMIT }).models[0];
    expect(read.decoder?.name).toBe("prompting");
    const records = read.score!.records.filter((r) => ids.includes(r.missId));
    expect(records.flatMap((r) => r.miss.anchorText).some((t) => t.length === LONG)).toBe(true);
    const whole = readForTest([dir]).models[0].score!.records.filter((r) => ids.includes(r.missId));
    expect(records.map((r) => [r.status, r.actedOnMiss, r.miss.anchorSteps])).toEqual(
      whole.map((r) => [r.status, r.actedOnMiss, r.miss.anchorSteps]),
    );
  }, 180_000);

  it("kept as outcomes only (its lines read as they stream by), is read again under the decoder its lines name", () => {
    const { dir } = longTextRun(0, "prompting");
    const outcomes = readForTest([dir], { keep: "outcomes" }).models[0];
    const all = readForTest([dir]).models[0];
    expect([outcomes.decoder?.name, all.decoder?.name]).toEqual(["prompting", "prompting"]);
    const decisions = (m: typeof all) =>
      m.score!.records.map((r) => [
        r.missId,
        r.status,
        r.actedOnBase,
        r.actedOnMiss,
        r.heldBackCredited,
        r.base.anchorSteps,
        r.miss.anchorSteps,
      ]);
    // the first read took the lines under fc, as the heads suggest: scoring them under prompting without a second read would throw
    expect(decisions(outcomes)).toEqual(decisions(all));
  }, 180_000);
});

describe("cutting a rollout's long texts as it is read", () => {
  const manifest = committedManifestSource().all().get("v4")!;
  const pair = manifest.pairs.find((p) => p.category === "miss_param")!;
  const turns = (anchor: unknown[]): RecordedRollout => ({
    kind: "turns",
    turns: [...Array.from({ length: pair.anchorTurn }, () => ["Done."]), anchor],
    turnCount: pair.anchorTurn + 1,
  });

  it("cuts a prose step longer than the limit, and keeps a cut text as it is", () => {
    const prose = turns(["y".repeat(50_000)]);
    const kept = longTextCutter([pair], fcDecoder, REPORT_TEXT_LIMIT).keep(pair.missId, prose);
    expect(kept).not.toBe(prose);
    const step = kept.kind === "turns" ? kept.turns[pair.anchorTurn][0] : null;
    expect(step).toBe(boundedText("y".repeat(50_000)));
    expect(boundedText(step as string)).toBe(step);
    expect(withTextStepsCut(turns(["short"]), REPORT_TEXT_LIMIT)).toEqual(turns(["short"]));
  });

  it("keeps a long text whole where the cut would change how it reads: a call written as text, read by the prompting decoder", () => {
    const tool = pair.tools[0];
    const call = turns([`[${tool}(x='${"y".repeat(50_000)}')]`]);
    expect(longTextCutter([pair], promptingDecoder, REPORT_TEXT_LIMIT).keep(pair.missId, call)).toBe(call);
  });
});
