import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sharedPath } from "../../testing/shared.js";
import { plainToPy } from "./fc.js";
import { MAX_SAMPLED_STEP, pyStepsOf, sampleSteps } from "./sample.js";
import { isEmptyStep } from "./select.js";

const enc = new TextEncoder();
const line = (id: string, result: unknown) =>
  JSON.stringify({ id, result, inference_log: [{ role: "assistant", content: "x".repeat(100) }] });

describe("what decoder detection samples of a step is bounded", () => {
  it("a step longer than the bound is left out; the steps around it are sampled in order", () => {
    const huge = "a".repeat(MAX_SAMPLED_STEP + 1);
    const bytes = enc.encode(
      [
        line("a_0", [
          ["first", huge, [{ cd: '{"folder": "x"}' }]],
          ["", "last"],
        ]),
        line("a_1", "an inference error"),
      ].join("\n"),
    );
    expect(sampleSteps([bytes])).toEqual(["first", [plainToPy({ cd: '{"folder": "x"}' })], "last"]);
    expect([...pyStepsOf([["first", huge], [[{ ls: "x".repeat(MAX_SAMPLED_STEP) }]]])]).toEqual(["first"]);
    expect([...pyStepsOf([["a".repeat(MAX_SAMPLED_STEP - 2)]])]).toHaveLength(1);
  });

  it("on the real runs' files it samples exactly the steps a whole parse of each result gives", () => {
    const files = [
      sharedPath("rollouts", "xlam-v3", "result", "Salesforce_Llama-xLAM-2-8b-fc-r", "BFCL_v3_multi_turn_base_result.json"),
      join(
        sharedPath("rollouts", "gpt-oss", "2025-11-12-main", "result", "openai_gpt-oss-120b", "multi_turn"),
        "BFCL_v4_multi_turn_miss_param_result.json",
      ),
    ];
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      const whole = text
        .split("\n")
        .filter((l) => l !== "")
        .flatMap((l) => {
          const r = (JSON.parse(l) as { result: unknown }).result;
          return Array.isArray(r) ? [...pyStepsOf(r)].filter((s) => !isEmptyStep(s)) : [];
        });
      expect(sampleSteps([enc.encode(text)], 100_000), file).toEqual(whole);
      expect(whole.length).toBeGreaterThan(1000);
    }
  });
});
