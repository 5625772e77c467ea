import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as core from "./core.js";
import * as twinscore from "./index.js";
import { answersFile, docFile, multiTurnClasses, questionsFile } from "./bfcl/data.js";
import { bfclDataDir, projectRoot, rolloutRunDir } from "./testing/shared.js";

/** Every export of an entry file, with the doc comment of what it resolves to. */
function exportsWithDocs(entry: string): { name: string; value: boolean; doc: string }[] {
  const file = join(projectRoot, "src", entry);
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const moduleSymbol = checker.getSymbolAtLocation(source)!;
  return checker.getExportsOfModule(moduleSymbol).map((s) => {
    const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    const doc = ts.displayPartsToString(target.getDocumentationComment(checker));
    const tags = target.getJsDocTags(checker).map((t) => `@${t.name} ${ts.displayPartsToString(t.text ?? [])}`);
    return { name: s.name, value: (target.flags & ts.SymbolFlags.Value) !== 0, doc: [doc, ...tags].join("\n") };
  });
}

describe("the library entry points", () => {
  it("twinscore: the use cases with file access, and only them (no internals such as logGamma or seedWords)", () => {
    const values = Object.keys(twinscore).sort();
    expect(values).toEqual([
      "buildPairs",
      "buildReport",
      "checkRuns",
      "compareArms",
      "compareTrials",
      "judgeHeldBack",
      "readRun",
      "runCommand",
      "runDemo",
      "scoreRuns",
      "verifyExpected",
    ]);
  });

  it("twinscore/core: the pure core, none of it touching files", () => {
    expect(Object.keys(core)).not.toContain("logGamma");
    expect(Object.keys(core)).not.toContain("MAX_INTEGERS_BOUND");
    const manifest = core.parseManifest(readFileSync(join(projectRoot, "data", "manifest.json"), "utf8"));
    expect(manifest.ok).toBe(true);
    if (!manifest.ok) return;
    expect(core.readingPairs(manifest.value, { pairSet: "certified", countLogin: false })).toHaveLength(223);
    expect(core.readingPairs(manifest.value, { pairSet: "certified", countLogin: true })).toHaveLength(225);
    const parsed = core.parseExpression("echo(content='x', file_name='a.txt')");
    expect(parsed.ok).toBe(true);
    expect(core.isWorldChanging({ name: "mv", positional: [], keywords: [] })).toBe(true);
    expect(core.isWorldChanging({ name: "ls", positional: [], keywords: [] })).toBe(false);
    const line = readFileSync(
      join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b", "multi_turn", "BFCL_v4_multi_turn_base_result.json"),
      "utf8",
    ).split("\n")[0];
    const decoded = core.decodeResultLine(line);
    expect("code" in decoded).toBe(false);
    if (!("code" in decoded)) expect([decoded.id, decoded.rollout.kind]).toEqual(["multi_turn_base_0", "turns"]);
  });

  it.each(["index.ts", "core.ts"])("every export of %s has a doc comment, and every function or constant an example", (entry) => {
    const exported = exportsWithDocs(entry);
    expect(exported.length).toBeGreaterThan(5);
    expect(exported.filter((e) => e.doc.trim() === "").map((e) => e.name)).toEqual([]);
    expect(
      exported
        .filter((e) => e.value && !/@example/.test(e.doc) && !Array.isArray((core as Record<string, unknown>)[e.name]))
        .map((e) => e.name),
    ).toEqual([]);
  });
  it("exposes BFCL's decoders and the choice of a folder's decoder", () => {
    expect(core.decoderByName("xlam")!.decode('[{"name": "cd", "arguments": {"folder": "x"}}]')).toEqual({
      ok: true,
      calls: ["cd(folder='x')"],
    });
    expect(core.chooseDecoder({ folder: "Salesforce_Llama-xLAM-2-8b-fc-r", samples: () => [] })!.decoder.name).toBe("xlam");
    expect(core.DECODER_NAMES).toContain("tool-call");
  });
  it("exposes the prompt-arm injection check (and the generation loop beside it)", () => {
    const check = core.injectionCheck(
      new Map([
        ["a", 10],
        ["b", 3],
      ]),
      new Map([
        ["a", 25],
        ["b", 18],
      ]),
    );
    expect(check.mode).toBe(15);
    expect(check.breaks).toEqual([]);
  });
});

describe("twinscore/core: the aligned numbers from file texts (2025-11-12-main, gpt-oss-120b)", () => {
  it("records, BFCL's checker on the twins' prefixes, the aligned score and the empty-turn table, as `score --bfcl-data` gives them", () => {
    const manifest = core.parseManifest(readFileSync(join(projectRoot, "data", "manifest.json"), "utf8"));
    if (!manifest.ok) throw new Error("manifest");
    const pairs = core.readingPairs(manifest.value, { pairSet: "certified", countLogin: false });
    const data = bfclDataDir();
    const docs = new Map(multiTurnClasses.map((c) => [c, readFileSync(join(data, docFile(c)), "utf8")]));
    const categories = ["base", "miss_func", "miss_param"] as const;
    const inputs = Object.fromEntries(
      categories.map((c) => {
        const q = join(data, questionsFile("v4", c));
        const a = join(data, answersFile("v4", c));
        const r = core.prepareCategory(readFileSync(q, "utf8"), q, readFileSync(a, "utf8"), a, docs);
        if (!r.ok) throw new Error(JSON.stringify(r.problems));
        return [c, r.value];
      }),
    ) as Record<(typeof categories)[number], core.CategoryInputs>;
    const texts = new Map<string, string>();
    const rollouts = { base: new Map(), miss_func: new Map(), miss_param: new Map() } as Record<
      (typeof categories)[number],
      Map<string, core.RecordedRollout>
    >;
    const model = "openai_gpt-oss-120b";
    const files = Object.fromEntries(
      categories.map((c) => [
        c,
        join(rolloutRunDir("2025-11-12-main"), "result", model, "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`),
      ]),
    );
    for (const c of categories) {
      readFileSync(files[c], "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (line.trim() === "") return;
          const parsed = JSON.parse(line) as { id: string; result: unknown };
          const text = JSON.stringify(parsed.result);
          texts.set(parsed.id, text);
          const r = core.decodeResult(text, 99, { file: files[c], line: i + 1 });
          if ("kind" in r) rollouts[c].set(parsed.id, r);
        });
    }
    const scored = core.scoreModel(model, pairs, rollouts);
    const prefixes = core.checkPairPrefixes(
      pairs,
      { inputs, results: texts },
      { modelName: model, newProcess: () => core.newEvaluatorProcess(undefined, true) },
    );
    if (!prefixes.ok) throw new Error(JSON.stringify(prefixes.problems));
    const s = core.alignedScore(scored.records, core.twinCompletions(prefixes.value), { resamples: 0, seed: 0 });
    expect(s.withheld).toEqual({ "held-completed": 104, "held-not-completed": 51, "acted-completed": 25, "acted-not-completed": 43 });
    expect([s.n, s.baseActedCompleted, s.aligned]).toEqual([223, 140, 94]);
    const counts = categories.map((c) => {
      const checked = core.checkResultFile(new Uint8Array(readFileSync(files[c])), files[c], {
        modelName: model,
        testCategory: `multi_turn_${c}`,
        inputs: inputs[c],
        process: core.newEvaluatorProcess(),
        renderScore: false,
        emptyTurns: "strict",
      });
      if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
      // the README's worked example: BFCL passes it, its irrelevance checker fails the lookup on turn 0, the world-changing reading does not
      if (c === "miss_func")
        expect(checked.value.readings!.find((e) => e.id === "multi_turn_miss_func_111")).toEqual({
          id: "multi_turn_miss_func_111",
          bfcl: true,
          strict: false,
          worldChanging: true,
        });
      return core.countReadings(model, c, checked.value.readings!);
    });
    // BFCL's score and its own irrelevance checker on these files (src/simulator/testdata/irrelevance-vectors.json)
    expect(counts.map((c) => [c.correct.bfcl, c.correct.strict])).toEqual([
      [100, 99],
      [91, 33],
      [83, 63],
    ]);
    const table = core.emptyTurnTable(counts);
    expect(table.map((r) => r.category)).toEqual(["base", "miss_func", "miss_param", "mean"]);
    expect(table[3].strict.accuracy).toBeCloseTo((49.5 + 16.5 + 31.5) / 3, 10);
  });
});
