import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bfclDataDir, rolloutRunDir, rolloutRuns, sharedPath } from "../testing/shared.js";
import { findResultFiles, runCheck } from "./check-run.js";

/** The 8 miss_func entries whose `missed_function` turn keys BFCL fixed after these runs (PR #1254). */
const PRE_1254 = new Set([101, 102, 115, 120, 122, 124, 129, 130].map((n) => `multi_turn_miss_func_${n}`));

const out = mkdtempSync(join(tmpdir(), "twinscore-check-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("twinscore check on the real gpt-oss runs (2 runs × 2 models × base/miss_func/miss_param = 2,400 entries)", () => {
  for (const run of rolloutRuns) {
    it(`agrees with every stored verdict, error type, message and error object of ${run}`, async () => {
      const dir = rolloutRunDir(run);
      const r = await runCheck({
        resultsDir: join(dir, "result"),
        bfclDataDir: bfclDataDir(),
        scoresDir: join(dir, "score"),
        outDir: join(out, run),
        env: {},
        cwd: "/",
      });
      if (!r.ok) throw new Error(JSON.stringify(r.problems));
      expect(r.value.problems).toEqual([]);
      expect(r.value.files.map((f) => `${f.model}/${f.category}`)).toEqual([
        "openai_gpt-oss-120b/base",
        "openai_gpt-oss-120b/miss_func",
        "openai_gpt-oss-120b/miss_param",
        "openai_gpt-oss-20b/base",
        "openai_gpt-oss-20b/miss_func",
        "openai_gpt-oss-20b/miss_param",
      ]);
      for (const f of r.value.files) {
        const a = f.agreement;
        expect(a, f.file).not.toBeNull();
        if (!a) continue;
        expect(a.entries).toBe(200);
        expect([a.verdictAgree, a.errorTypeAgree, a.messageAgree]).toEqual([200, 200, 200]);
        expect(a.errorObjectAgree).toBe(a.bothFailed);
        expect(a.disagreeingIds).toEqual([]);
        // the written score file equals the stored one line for line, except the prompt of the pre-#1254 entries
        const written = readFileSync(f.written as string, "utf8").split("\n");
        const stored = readFileSync(f.storedScoreFile as string, "utf8").split("\n");
        expect(written.length).toBe(stored.length);
        const differing = written.filter((l, i) => l !== stored[i]).map((l) => JSON.parse(l).id as string);
        expect(
          differing.every((id) => PRE_1254.has(id)),
          differing.join(" "),
        ).toBe(true);
      }
    });
  }

  it("gives each run of a tree its own score folder (the two runs share model names)", () => {
    const tree = sharedPath("rollouts", "gpt-oss");
    const found = findResultFiles(tree).files;
    expect(found).toHaveLength(12);
    const targets = found.map((f) => f.scoreRelative);
    expect(new Set(targets).size).toBe(12);
    expect(targets[0]).toBe(
      join("2025-11-12-harmony-fixes", "score", "openai_gpt-oss-120b", "multi_turn", "BFCL_v4_multi_turn_base_score.json"),
    );
    // a result root or one model folder keeps BFCL's <model>/… layout
    const root = findResultFiles(join(rolloutRunDir("2025-11-12-main"), "result")).files;
    expect(root[0].scoreRelative).toBe(join("openai_gpt-oss-120b", "multi_turn", "BFCL_v4_multi_turn_base_score.json"));
    const model = findResultFiles(join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-20b")).files;
    expect(model[0].scoreRelative).toBe(join("openai_gpt-oss-20b", "multi_turn", "BFCL_v4_multi_turn_base_score.json"));
    // a run folder (holding result/ and score/) is one run too: BFCL's <model>/… layout, not score/<model>/…
    const run = findResultFiles(rolloutRunDir("2025-11-12-main")).files;
    expect(run[0].scoreRelative).toBe(join("openai_gpt-oss-120b", "multi_turn", "BFCL_v4_multi_turn_base_score.json"));
  });

  it("reports a missing results folder as one problem", async () => {
    const r = await runCheck({ resultsDir: join(out, "nope"), bfclDataDir: bfclDataDir(), env: {}, cwd: "/" });
    expect(!r.ok && r.problems[0].code).toBe("results-missing");
  });
});
