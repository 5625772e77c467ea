import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readCategoryInputs } from "../app/bfcl-inputs.js";
import { loadManifest } from "../io/manifest.js";
import { bfclDataDir, projectRoot, rolloutRunDir, rolloutRuns } from "../testing/shared.js";
import { readResultFile } from "../app/result-lines.js";
import { checkPairPrefixes, checkPrefix, twinCompletions, type PrefixOutcome } from "./prefix-check.js";
import type { CategoryInputs } from "./run-check.js";
import { newEvaluatorProcess } from "./runtime.js";
import { nodeHost } from "../io/host.js";

/** BFCL's multi_turn_checker on the twins' turn prefixes (tools/gen-aligned-vectors.py). */
const vectors = JSON.parse(readFileSync(join(projectRoot, "src", "simulator", "testdata", "prefix-check-vectors.json"), "utf8")) as {
  pairs: [string, string, number][];
  runs: Record<string, { base: string; miss: string }>;
};

const models = ["openai_gpt-oss-120b", "openai_gpt-oss-20b"] as const;
const categories = ["base", "miss_func", "miss_param"] as const;

function allInputs(): Record<(typeof categories)[number], CategoryInputs> {
  const read = (c: (typeof categories)[number]) => {
    const r = readCategoryInputs(bfclDataDir(), "v4", c, nodeHost());
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    return r.value;
  };
  return { base: read("base"), miss_func: read("miss_func"), miss_param: read("miss_param") };
}

function modelResults(run: (typeof rolloutRuns)[number], model: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of categories) {
    const file = join(rolloutRunDir(run), "result", model, "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`);
    const ids = new Set(pairs.map((p) => (c === "base" ? p.baseId : p.missId)));
    for (const [id, text] of readResultFile(file, c, { wanted: null, texts: ids }).texts!) out.set(id, text);
  }
  return out;
}

/** The vectors' notation: 1 completed; I inference error; F ended before the prefix; E/S/R + turn for the checker's error. */
function token(o: PrefixOutcome): string {
  if (o.completed) return "1";
  switch (o.reason) {
    case "inference-error":
      return "I";
    case "short":
      return "F";
    case "missing":
      return "?";
    case "checker": {
      const letter =
        {
          "multi_turn:empty_turn_model_response": "E",
          "multi_turn:instance_state_mismatch": "S",
          "multi_turn:execution_response_mismatch": "R",
        }[o.errorType as string] ?? "X";
      return `${letter}${o.turn}`;
    }
  }
}

const inputs = allInputs();
const manifest = loadManifest();
if (!manifest.ok) throw new Error("manifest");
const pairs = [...manifest.value.pairs, ...manifest.value.restoredPairs];

describe("checkPrefix on hand-made cuts of a real rollout (2025-11-12-main, gpt-oss-120b, multi_turn_miss_param_122)", () => {
  const results = modelResults("2025-11-12-main", "openai_gpt-oss-120b");
  const id = "multi_turn_miss_param_122";
  const q = inputs.miss_param.questions.get(id)!;
  const gt = inputs.miss_param.groundTruth.get(id)!;
  const opts = { modelName: "openai_gpt-oss-120b", newProcess: () => newEvaluatorProcess(undefined, true) };
  it("an inference-error line and a rollout shorter than the prefix are not completed", () => {
    expect(checkPrefix(JSON.stringify("Error during inference: boom"), gt, q.prompt, 1, opts)).toEqual({
      completed: false,
      reason: "inference-error",
    });
    const cut = JSON.stringify((JSON.parse(results.get(id)!) as unknown[]).slice(0, 1));
    expect(checkPrefix(cut, gt, q.prompt, 1, opts)).toEqual({ completed: false, reason: "short" });
  });
  it("silence on the answer turn fails it by the empty-turn rule", () => {
    const silent = JSON.parse(results.get(id)!) as unknown[][];
    silent[1] = [[]];
    expect(checkPrefix(JSON.stringify(silent), gt, q.prompt, 1, opts)).toEqual({
      completed: false,
      reason: "checker",
      errorType: "multi_turn:empty_turn_model_response",
      turn: 1,
    });
  });
});

describe("base_completed / miss_completed equal BFCL's prefix checks on every pair of the manifest, both gpt-oss runs", () => {
  it("the vectors cover the manifest's pairs in order", () => {
    expect(vectors.pairs).toEqual(pairs.map((p) => [p.missId, p.baseId, p.anchorTurn]));
  });
  for (const run of rolloutRuns) {
    for (const model of models) {
      it(`${run}/${model}`, () => {
        const r = checkPairPrefixes(
          pairs,
          { inputs, results: modelResults(run, model) },
          { modelName: model, newProcess: () => newEvaluatorProcess(undefined, true) },
        );
        if (!r.ok) throw new Error(JSON.stringify(r.problems));
        const expected = vectors.runs[`${run}/${model}`];
        const base = r.value.map((p) => token(p.base));
        const miss = r.value.map((p) => token(p.miss));
        // compared token by token so a difference names its pair
        const differ = pairs.flatMap((p, i) => {
          const eb = expected.base.split(" ")[i];
          const em = expected.miss.split(" ")[i];
          return eb === base[i] && em === miss[i] ? [] : [`${p.missId}: base ${base[i]} (BFCL ${eb}), miss ${miss[i]} (BFCL ${em})`];
        });
        expect(differ).toEqual([]);
        expect(base.join(" ")).toBe(expected.base);
        expect(miss.join(" ")).toBe(expected.miss);
        const bits = twinCompletions(r.value);
        expect(pairs.filter((p) => bits.get(p.missId)?.missCompleted).length).toBe(
          expected.miss.split(" ").filter((t) => t === "1").length,
        );
        // both outcomes occur on both sides
        expect(new Set(base.map((t) => t === "1")).size).toBe(2);
        expect(new Set(miss.map((t) => t === "1")).size).toBe(2);
      });
    }
  }
});
