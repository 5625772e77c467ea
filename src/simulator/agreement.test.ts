import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseScoreFile, type FailedEntry } from "../bfcl/scores.js";
import { rolloutRunDir } from "../testing/shared.js";
import { compareVerdicts } from "./agreement.js";
import type { OurVerdict } from "./scorefile.js";

describe("agreement of check's verdicts with a stored score file (the real 2025-11-12-main gpt-oss-120b base file, and mutated copies of it)", () => {
  const file = join(rolloutRunDir("2025-11-12-main"), "score", "openai_gpt-oss-120b", "multi_turn", "BFCL_v4_multi_turn_base_score.json");
  const storedText = readFileSync(file, "utf8");
  const parse = (text: string) => {
    const r = parseScoreFile(text, file);
    if (r.content === null || r.problems.length > 0) throw new Error(JSON.stringify(r.problems));
    return r.content;
  };
  /** A score file's failures as our verdicts, plus every passing id as valid, in id order. */
  const asVerdicts = (text: string): OurVerdict[] => {
    const stored = parse(text);
    const out: OurVerdict[] = [];
    for (let i = 0; i < 200; i++) {
      const id = `multi_turn_base_${i}`;
      const first = stored.failed.get(id);
      if (!first) out.push({ id, valid: true });
      else
        for (const f of [first, ...(first.more ?? [])])
          out.push({ id, valid: false, errorType: f.errorType, errorMessage: f.errorMessage, errorJson: f.errorJson });
    }
    return out;
  };
  /** The real file with one failed line changed by `edit` (its parsed line). */
  const mutated = (id: string, edit: (line: Record<string, any>) => void): string =>
    storedText
      .split("\n")
      .map((l) => {
        if (!l.startsWith(`{"id": "${id}",`)) return l;
        const line = JSON.parse(l);
        edit(line);
        return JSON.stringify(line);
      })
      .join("\n");

  it("agrees with itself on all 200 entries", () => {
    const stored = parse(storedText);
    expect(stored.failed.size).toBe(200 - stored.header.correctCount);
    const a = compareVerdicts(asVerdicts(storedText), stored);
    expect(a.entries).toBe(200);
    expect(a.disagreeingIds).toEqual([]);
    expect(a.errorObjectAgree).toBe(a.bothFailed);
  });

  it("lists an entry whose error object alone differs (same verdict, type and message) as disagreeing", () => {
    const stored = parse(storedText);
    const [id] = [...stored.failed].find(([, f]) => f.errorType === "multi_turn:instance_state_mismatch") as [string, FailedEntry];
    const a = compareVerdicts(
      asVerdicts(
        mutated(id, (line) => {
          line.error.details.model_instance_state = { changed: true };
        }),
      ),
      stored,
    );
    expect([a.verdictAgree, a.errorTypeAgree, a.messageAgree]).toEqual([200, 200, 200]);
    expect(a.errorObjectAgree).toBe(a.bothFailed - 1);
    expect(a.disagreeingIds).toEqual([id]);
  });

  it("lists entries whose verdict, type or message differ", () => {
    const stored = parse(storedText);
    const failed = [...stored.failed.keys()];
    const passing = Array.from({ length: 200 }, (_, i) => `multi_turn_base_${i}`).find((id) => !stored.failed.has(id)) as string;
    const ours = asVerdicts(storedText).map((v): OurVerdict => {
      if (v.id === failed[0]) return { ...v, errorMessage: "another message" };
      if (v.id === failed[1]) return { ...v, errorType: "multi_turn:force_terminated" };
      if (v.id === passing)
        return { id: v.id, valid: false, errorType: "multi_turn:empty_turn_model_response", errorMessage: "x", errorJson: "{}" };
      return v;
    });
    const a = compareVerdicts(ours, stored);
    expect(a.verdictAgree).toBe(199);
    expect(a.disagreeingIds).toEqual(
      [failed[0], failed[1], passing].sort((x, y) => Number(x.split("_").pop()) - Number(y.split("_").pop())),
    );
  });

  it("reads BFCL v3's second line for an entry (an inference error, then the turn-count check) and compares both lines in order", () => {
    const lines = storedText.split("\n");
    const header = lines[0];
    const id = "multi_turn_base_0";
    const common = {
      id,
      model_name: "m",
      test_category: "multi_turn_base",
      valid: false,
      prompt: {},
      model_result: "Error during inference: boom",
      possible_answer: [],
    };
    const inference = {
      ...common,
      error: {
        error_message: ["Error during inference phase. Model did not output a list of model responses."],
        error_type: "multi_turn:inference_error",
      },
    };
    const terminated = {
      ...common,
      error: {
        error_message: [
          "Model was force-terminated during inference phase. The length of the model result turns (28) does not match the length of the ground truth turns (4).",
        ],
        error_type: "multi_turn:force_terminated",
      },
    };
    const text = [
      header.replace(/"correct_count": \d+/, '"correct_count": 199').replace(/"accuracy": [\d.]+/, '"accuracy": 0.995'),
      JSON.stringify(inference),
      JSON.stringify(terminated),
    ].join("\n");
    const stored = parse(text);
    expect(stored.failed.get(id)?.more?.map((f) => f.errorType)).toEqual(["multi_turn:force_terminated"]);
    const line = (o: typeof inference): OurVerdict => ({
      id,
      valid: false,
      errorType: o.error.error_type,
      errorMessage: o.error.error_message[0],
      errorJson: JSON.stringify(o.error),
    });
    expect(compareVerdicts([line(inference), line(terminated)], stored).disagreeingIds).toEqual([]);
    // one line where BFCL wrote two
    const a = compareVerdicts([line(inference)], stored);
    expect([a.verdictAgree, a.errorTypeAgree, a.disagreeingIds]).toEqual([1, 0, [id]]);
    // an id repeated otherwise still makes the file unusable
    expect(parseScoreFile([header, JSON.stringify(terminated), JSON.stringify(terminated)].join("\n"), file).content).toBeNull();
  });
});
