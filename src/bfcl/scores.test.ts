import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { failingTurnOf, parseFailedLine, parseScoreFile, parseScoreHeader, verdictsOf } from "./scores.js";
import { rolloutRunDir } from "../testing/shared.js";

const scoreFile = (model: string, category: string) =>
  join(rolloutRunDir("2025-11-12-main"), "score", model, "multi_turn", `BFCL_v4_multi_turn_${category}_score.json`);

describe("BFCL score files (real: 2025-11-12-main, openai_gpt-oss-120b)", () => {
  const file = scoreFile("openai_gpt-oss-120b", "miss_func");
  const parsed = parseScoreFile(readFileSync(file, "utf8"), file);

  it("reads the header and the failed entries only", () => {
    expect(parsed.problems).toEqual([]);
    expect(parsed.content!.header).toEqual({ accuracy: 0.455, correctCount: 91, totalCount: 200 });
    expect(parsed.content!.failed.size).toBe(109);
  });
  it("failing turns: response mismatch and empty turn from the message, state mismatch from the execution records, none for runner-level failures", () => {
    const f = parsed.content!.failed;
    expect(f.get("multi_turn_miss_func_0")).toMatchObject({ errorType: "multi_turn:execution_response_mismatch", failingTurn: 1, line: 2 });
    expect(f.get("multi_turn_miss_func_2")).toMatchObject({ errorType: "multi_turn:instance_state_mismatch", failingTurn: 4, line: 4 });
    expect(f.get("multi_turn_miss_func_7")).toMatchObject({ errorType: "multi_turn:inference_error", failingTurn: null });
    expect(f.get("multi_turn_miss_func_8")).toMatchObject({ errorType: "multi_turn:empty_turn_model_response", failingTurn: 3 });
    expect(f.get("multi_turn_miss_func_10")).toMatchObject({ errorType: "multi_turn:force_terminated", failingTurn: null });
    expect(f.get("multi_turn_miss_func_10")!.errorMessage).toMatch(/^Model was force-terminated/);
  });
  it("cross-checks the header against the result file's ids", () => {
    const ids = Array.from({ length: 200 }, (_, i) => `multi_turn_miss_func_${i}`);
    const ok = verdictsOf(parsed.content!, ids, { scoreFile: file, resultFile: "r.json" });
    expect(ok.problems).toEqual([]);
    expect([...ok.verdicts.values()].filter((v) => v.pass).length).toBe(91);
    expect(ok.verdicts.get("multi_turn_miss_func_3")).toEqual({ pass: true, failure: null });
    expect(ok.verdicts.get("multi_turn_miss_func_1")!.pass).toBe(false);
    const short = verdictsOf(parsed.content!, ids.slice(0, 150), { scoreFile: file, resultFile: "r.json" });
    expect(short.problems.map((p) => p.code)).toContain("score-count-mismatch");
    expect(short.problems.some((p) => p.code === "score-id-unknown" && p.line !== undefined)).toBe(true);
  });
});

describe("score-file input errors become one located problem", () => {
  it("a header that is not BFCL's", () => {
    expect(parseScoreHeader('{"accuracy": 0.5}', "s.json")).toMatchObject({ code: "score-header-malformed", file: "s.json", line: 1 });
    expect(parseScoreHeader("nope", "s.json")).toMatchObject({ code: "score-header-malformed", line: 1 });
    expect(parseScoreFile("", "s.json").content).toBeNull();
  });
  it("a malformed failed line is reported with its line and left out; a repeated id makes the file unusable", () => {
    const header = JSON.stringify({ accuracy: 0.5, correct_count: 1, total_count: 2 });
    const line = JSON.stringify({
      id: "multi_turn_base_1",
      error: { error_type: "multi_turn:empty_turn_model_response", error_message: "Model response list is empty for turn 2" },
    });
    const bad = parseScoreFile([header, "{oops", line].join("\n"), "s.json");
    expect(bad.problems).toMatchObject([{ code: "score-line-malformed", line: 2 }]);
    expect(bad.content!.failed.get("multi_turn_base_1")!.failingTurn).toBe(2);
    const twice = parseScoreFile([header, line, line].join("\n"), "s.json");
    expect(twice.content).toBeNull();
    expect(twice.problems[0]).toMatchObject({ code: "score-id-repeated", line: 3 });
    expect(parseFailedLine(JSON.stringify({ id: "x" }), "s.json", 5)).toMatchObject({ code: "score-line-malformed", line: 5 });
  });
  it("failingTurnOf: state mismatch with no records has no turn", () => {
    expect(failingTurnOf("multi_turn:instance_state_mismatch", "", 0)).toBeNull();
    expect(failingTurnOf("multi_turn:instance_state_mismatch", "", 3)).toBe(2);
  });
});
