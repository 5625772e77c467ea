import { describe, expect, it } from "vitest";
import { PyDict, PySet } from "../python/containers.js";
import type { PyValue } from "../python/value.js";
import { checkDecoded, checkEntry, decodeTurns, missingResults, testCategoryOfId, type CheckPrompt } from "./checker.js";
import { EvaluatorProcess } from "./executor.js";
import { dumpScoreValue } from "./scorefile.js";
import type { ApiInstance, MethodSpec } from "./types.js";

/** A fake class: a set of tags (compared state) and a private counter that is never compared. */
function newTagger(): ApiInstance {
  let tags = new PySet();
  let owner: PyValue = "nobody";
  let privateCalls = 0;
  const m = (params: MethodSpec["params"], invoke: MethodSpec["invoke"]): MethodSpec => ({ params, invoke });
  return {
    className: "TicketAPI",
    loadScenario(config: PyDict) {
      tags = new PySet((config.get("tags") as PyValue[] | undefined) ?? []);
      owner = config.get("owner") ?? "nobody";
    },
    publicState: () => [
      ["owner", owner],
      ["tags", tags],
    ],
    methods: new Map([
      [
        "tag",
        m([{ name: "name" }], ([n]) => {
          privateCalls++;
          tags.add(n);
          return new PyDict([["added", n]]);
        }),
      ],
      ["count", m([], () => BigInt(tags.size))],
      [
        "whoami",
        m(
          [],
          () =>
            new PyDict([
              ["owner", owner],
              ["calls", BigInt(privateCalls)],
            ]),
        ),
      ],
    ]),
  };
}

const prompt: CheckPrompt = {
  id: "multi_turn_base_7",
  initialConfig: new PyDict([
    [
      "TicketAPI",
      new PyDict([
        ["tags", ["a"]],
        ["owner", "kim"],
      ]),
    ],
  ]),
  involvedClasses: ["TicketAPI"],
};
const process = () => new EvaluatorProcess((cls) => (cls === "TicketAPI" ? newTagger() : undefined));
const opts = () => ({ modelName: "openai_gpt-oss-120b", process: process() });

describe("runner pre-checks", () => {
  it("a non-list result is an inference error with BFCL's one-element message list", () => {
    const v = checkEntry("Error during inference: boom", [["tag(name='b')"]], prompt, opts());
    expect(v.valid).toBe(false);
    if (v.valid) return;
    expect(v.runnerLevel).toBe(true);
    expect(dumpScoreValue(v.error)).toBe(
      '{"error_message": ["Error during inference phase. Model did not output a list of model responses."], "error_type": "multi_turn:inference_error"}',
    );
  });
  it("a turn-count mismatch is force termination naming both lengths", () => {
    const v = checkEntry([[]], [["tag(name='b')"], []], prompt, opts());
    expect(!v.valid && v.errorMessage).toBe(
      "Model was force-terminated during inference phase. The length of the model result turns (1) does not match the length of the ground truth turns (2).",
    );
  });
});

describe("turn-by-turn checks", () => {
  it("passes when state and results match, with the model's results accumulated over turns", () => {
    // turn 0 the model tags b and counts early; turn 1 the reference counts, which the model answered in turn 0
    const v = checkDecoded([[["tag(name='b')"], ["count()"]], [["whoami()"]]], [["tag(name='b')"], ["count()"]], prompt, opts());
    expect(v.valid).toBe(true);
  });
  it("an empty model turn against a non-empty reference fails with the turn index and execution records", () => {
    const v = checkDecoded([[["count()"]], []], [["count()"], ["tag(name='z')"]], prompt, opts());
    expect(v.valid).toBe(false);
    if (v.valid) return;
    expect(v.errorType).toBe("multi_turn:empty_turn_model_response");
    expect(dumpScoreValue(v.error)).toBe(
      '{"error_message": "Model response list is empty for turn 1", "error_type": "multi_turn:empty_turn_model_response", "details": {"execution_result": [{"model": [["1"]], "ground_truth": ["1"]}, {"model": [], "ground_truth": ["{\\"added\\": \\"z\\"}"]}]}}',
    );
  });
  it("skips checks on a turn without reference calls, but the model's calls there still change state", () => {
    const v = checkDecoded([[["tag(name='x')"]], [["count()"]]], [[], ["count()"]], prompt, opts());
    expect(!v.valid && v.errorType).toBe("multi_turn:instance_state_mismatch");
    if (v.valid) return;
    expect(v.errorMessage).toBe("Model instance for TicketAPI does not match the state with ground truth instance.");
    const text = dumpScoreValue(v.error);
    expect(text).toContain('"differences": {"tags": {"model": "{\'a\', \'x\'}", "ground_truth": "{\'a\'}"}}');
    expect(text).toContain('"model_instance_state": {"owner": "kim", "tags": "{\'a\', \'x\'}"}');
    expect(Object.keys(JSON.parse(text))).toEqual(["error_message", "error_type", "details", "execution_result"]);
  });
  it("reports missing reference results (multiset) for the failing turn", () => {
    const v = checkDecoded([[["count()"]]], [["count()", "count()"]], prompt, opts());
    expect(!v.valid && v.errorType).toBe("multi_turn:execution_response_mismatch");
    if (v.valid) return;
    expect(JSON.parse(dumpScoreValue(v.error)).details).toEqual({
      missing_items: ["1"],
      "model_response (including all previous turns)": ["1"],
      "ground_truth_response (only the current turn)": ["1", "1"],
    });
  });
  it("private state (a call counter) is not compared, but results that expose it are", () => {
    const v = checkDecoded([[["tag(name='a')"], ["whoami()"]]], [["whoami()"]], prompt, opts());
    expect(!v.valid && v.errorType).toBe("multi_turn:execution_response_mismatch");
  });
});

describe("helpers", () => {
  it("multiset containment removes one occurrence per reference result", () => {
    expect(missingResults(["a", "a", "b"], ["a", "b", "c"])).toEqual(["a"]);
  });
  it("drops steps that fail to decode or decode to nothing", () => {
    expect(decodeTurns([[[], "text", [new PyDict([["count", "{}"]])]]])).toEqual([[["count()"]]]);
  });
  it("derives the category like id.rsplit('_', 1)[0]", () => {
    expect(testCategoryOfId("multi_turn_long_context_3")).toBe("multi_turn_long_context");
  });
});
