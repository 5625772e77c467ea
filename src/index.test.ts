import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as twinscore from "./index.js";
import { answersFile, docFile, multiTurnClasses, questionsFile } from "./bfcl/data.js";
import { bfclDataDir, projectRoot, rolloutRunDir } from "./testing/shared.js";

describe("the library entry point", () => {
  it("scores from text passed in: the committed manifest selects Table 1's 223 pairs", () => {
    const manifest = twinscore.parseManifest(readFileSync(join(projectRoot, "data", "manifest.json"), "utf8"));
    expect(manifest.ok).toBe(true);
    if (!manifest.ok) return;
    expect(twinscore.selectPairs(manifest.value, { pairSet: "certified", countLogin: false })).toHaveLength(223);
    expect(twinscore.selectPairs(manifest.value, { pairSet: "certified", countLogin: true })).toHaveLength(225);
  });
  it("exposes the world-changing predicate and the parser", () => {
    const parsed = twinscore.parseExpression("echo(content='x', file_name='a.txt')");
    expect(parsed.ok).toBe(true);
    expect(twinscore.isWorldChanging({ name: "mv", positional: [], keywords: [] })).toBe(true);
    expect(twinscore.isWorldChanging({ name: "ls", positional: [], keywords: [] })).toBe(false);
  });
  it("exposes BFCL's decoders and the choice of a folder's decoder", () => {
    expect(twinscore.decoderByName("xlam")!.decode('[{"name": "cd", "arguments": {"folder": "x"}}]')).toEqual({ ok: true, calls: ["cd(folder='x')"] });
    expect(twinscore.chooseDecoder({ folder: "Salesforce_Llama-xLAM-2-8b-fc-r", samples: () => [] })!.decoder.name).toBe("xlam");
    expect(twinscore.DECODER_NAMES).toContain("tool-call");
  });
  it("exposes the prompt-arm injection check (and the generation loop beside it)", () => {
    const check = twinscore.injectionCheck(new Map([["a", 10], ["b", 3]]), new Map([["a", 25], ["b", 18]]));
    expect(check.mode).toBe(15);
    expect(check.breaks).toEqual([]);
  });
});

describe("the library entry point: the aligned numbers from file texts (2025-11-12-main, gpt-oss-120b)", () => {
  it("records, BFCL's checker on the twins' prefixes, the aligned score and the empty-turn table, as `score --bfcl-data` gives them", () => {
    const manifest = twinscore.parseManifest(readFileSync(join(projectRoot, "data", "manifest.json"), "utf8"));
    if (!manifest.ok) throw new Error("manifest");
    const pairs = twinscore.selectPairs(manifest.value, { pairSet: "certified", countLogin: false });
    const data = bfclDataDir();
    const docs = new Map(multiTurnClasses.map((c) => [c, readFileSync(join(data, docFile(c)), "utf8")]));
    const categories = ["base", "miss_func", "miss_param"] as const;
    const inputs = Object.fromEntries(
      categories.map((c) => {
        const q = join(data, questionsFile("v4", c));
        const a = join(data, answersFile("v4", c));
        const r = twinscore.prepareCategory(readFileSync(q, "utf8"), q, readFileSync(a, "utf8"), a, docs);
        if (!r.ok) throw new Error(JSON.stringify(r.problems));
        return [c, r.value];
      }),
    ) as Record<(typeof categories)[number], twinscore.CategoryInputs>;
    const texts = new Map<string, string>();
    const rollouts = { base: new Map(), miss_func: new Map(), miss_param: new Map() } as Record<(typeof categories)[number], Map<string, twinscore.RecordedRollout>>;
    const model = "openai_gpt-oss-120b";
    const files = Object.fromEntries(categories.map((c) => [c, join(rolloutRunDir("2025-11-12-main"), "result", model, "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`)]));
    for (const c of categories) {
      readFileSync(files[c], "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (line.trim() === "") return;
          const parsed = JSON.parse(line) as { id: string; result: unknown };
          const text = JSON.stringify(parsed.result);
          texts.set(parsed.id, text);
          const r = twinscore.decodeResult(text, 99, { file: files[c], line: i + 1 });
          if ("kind" in r) rollouts[c].set(parsed.id, r);
        });
    }
    const scored = twinscore.scoreModel(model, pairs, rollouts, { pairSet: "certified", countLogin: false });
    const prefixes = twinscore.checkPairPrefixes(pairs, { inputs, results: texts }, { modelName: model, newProcess: () => twinscore.newEvaluatorProcess(undefined, true) });
    if (!prefixes.ok) throw new Error(JSON.stringify(prefixes.problems));
    const s = twinscore.alignedScore(scored.records, twinscore.twinCompletions(prefixes.value), { resamples: 0, seed: 0 });
    expect(s.withheld).toEqual({ "held-completed": 104, "held-not-completed": 51, "acted-completed": 25, "acted-not-completed": 43 });
    expect([s.n, s.baseActedCompleted, s.aligned]).toEqual([223, 140, 94]);
    const counts = categories.map((c) => {
      const checked = twinscore.checkResultFile(new Uint8Array(readFileSync(files[c])), files[c], {
        modelName: model,
        testCategory: `multi_turn_${c}`,
        inputs: inputs[c],
        process: twinscore.newEvaluatorProcess(),
        renderScore: false,
        emptyTurns: "strict",
      });
      if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
      // the README's worked example: BFCL passes it, its irrelevance checker fails the lookup on turn 0, the world-changing reading does not
      if (c === "miss_func") expect(checked.value.readings!.find((e) => e.id === "multi_turn_miss_func_111")).toEqual({ id: "multi_turn_miss_func_111", bfcl: true, strict: false, worldChanging: true });
      return twinscore.countReadings(model, c, checked.value.readings!);
    });
    // BFCL's score and its own irrelevance checker on these files (src/simulator/testdata/irrelevance-vectors.json)
    expect(counts.map((c) => [c.correct.bfcl, c.correct.strict])).toEqual([[100, 99], [91, 33], [83, 63]]);
    const table = twinscore.emptyTurnTable(counts);
    expect(table.map((r) => r.category)).toEqual(["base", "miss_func", "miss_param", "mean"]);
    expect(table[3].strict.accuracy).toBeCloseTo((49.5 + 16.5 + 31.5) / 3, 10);
  });
});
