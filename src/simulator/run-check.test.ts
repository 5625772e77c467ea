import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { answersFile, docFile, multiTurnDocFiles, questionsFile } from "../bfcl/data.js";
import { bfclDataDir, rolloutRunDir } from "../testing/shared.js";
import { instanceName } from "./executor.js";
import { checkModelFiles, checkResultFile, prepareCategory, type CategoryInputs } from "./run-check.js";
import { newEvaluatorProcess } from "./runtime.js";

const model = "openai_gpt-oss-120b";
const text = (bytes: Uint8Array | null): string => new TextDecoder().decode(bytes ?? new Uint8Array());
const resultPath = join(rolloutRunDir("2025-11-12-main"), "result", model, "multi_turn", "BFCL_v4_multi_turn_base_result.json");

function baseInputs(): CategoryInputs {
  const data = bfclDataDir();
  const docs = new Map(
    Object.keys(multiTurnDocFiles).map((c) => [c, readFileSync(join(data, docFile(c as keyof typeof multiTurnDocFiles)), "utf8")]),
  );
  const r = prepareCategory(
    readFileSync(join(data, questionsFile("v4", "base")), "utf8"),
    "questions",
    readFileSync(join(data, answersFile("v4", "base")), "utf8"),
    "answers",
    docs,
  );
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.value;
}

/** The real 120b base file with one extra first step in multi_turn_base_1 that calls entry 0's model instance by its global name. */
function fileNamingAnotherEntrysInstance(): Uint8Array {
  const name = instanceName(`${model}_eval`, "multi_turn_base_0", "GorillaFileSystem");
  const lines = readFileSync(resultPath, "utf8").split("\n");
  const i = lines.findIndex((l) => l.startsWith('{"id": "multi_turn_base_1",'));
  const line = JSON.parse(lines[i]);
  line.result[0].unshift([{ [`${name}.pwd`]: "{}" }]);
  lines[i] = JSON.stringify(line);
  return new TextEncoder().encode(lines.join("\n"));
}

describe("checkModelFiles: a fast process, and an exact rerun only when a call names an instance (real 120b base file, 200 entries)", () => {
  const inputs = baseInputs();
  const run = (bytes: Uint8Array) => {
    const asked: boolean[] = [];
    const results = checkModelFiles([{ bytes, file: resultPath, testCategory: "multi_turn_base", inputs }], {
      modelName: model,
      newProcess: (exact) => {
        asked.push(exact);
        return newEvaluatorProcess(undefined, exact);
      },
      renderScore: true,
    });
    return { asked, results };
  };

  it("checks the real file in one fast process, with the same score file as an exact process", () => {
    const bytes = new Uint8Array(readFileSync(resultPath));
    const { asked, results } = run(bytes);
    expect(asked).toEqual([false]);
    const fast = results[0];
    const exact = checkResultFile(bytes, resultPath, {
      modelName: model,
      testCategory: "multi_turn_base",
      inputs,
      process: newEvaluatorProcess(undefined, true),
      renderScore: true,
    });
    if (!fast.ok || !exact.ok) throw new Error("check failed");
    expect(fast.value.total).toBe(200);
    expect(text(fast.value.scoreFile)).toBe(text(exact.value.scoreFile));
  });

  it("reruns exactly when multi_turn_base_1 calls multi_turn_base_0's instance, and then matches BFCL's globals", () => {
    const bytes = fileNamingAnotherEntrysInstance();
    // a fast process alone cannot answer: entry 0's instances were released
    const alone = checkResultFile(bytes, resultPath, {
      modelName: model,
      testCategory: "multi_turn_base",
      inputs,
      process: newEvaluatorProcess(),
      renderScore: false,
    });
    expect(!alone.ok && alone.problems[0].code).toBe("instance-named-in-call");
    const { asked, results } = run(bytes);
    expect(asked).toEqual([false, true]);
    const exact = checkResultFile(bytes, resultPath, {
      modelName: model,
      testCategory: "multi_turn_base",
      inputs,
      process: newEvaluatorProcess(undefined, true),
      renderScore: true,
    });
    if (!results[0].ok || !exact.ok) throw new Error("check failed");
    expect(text(results[0].value.scoreFile)).toBe(text(exact.value.scoreFile));
    // entry 0's instance was found, as in BFCL's globals (BFCL's rewriting then prefixes `pwd(` with
    // entry 1's instance name, so Python looks that name up as an attribute of entry 0's instance)
    const line = text(results[0].value.scoreFile)
      .split("\n")
      .find((l) => l.includes('"id": "multi_turn_base_1"'));
    const error = JSON.parse(line as string).error;
    const firstResult = error.details["model_response (including all previous turns)"][0];
    expect(firstResult).toBe(
      `Error during execution: 'GorillaFileSystem' object has no attribute '${instanceName(`${model}_eval`, "multi_turn_base_1", "GorillaFileSystem")}'`,
    );
  });
});

describe("checkResultFile: result lines that are not JSON (real 120b base file with two lines broken)", () => {
  const inputs = baseInputs();
  const lines = readFileSync(resultPath, "utf8").split("\n");
  // break `result` of the 6th and 151st lines (file order), leaving id and the rest intact
  const broken = [5, 150];
  for (const i of broken) lines[i] = lines[i].replace('"result": [[', '"result": [[,');
  const bytes = new TextEncoder().encode(lines.join("\n"));

  it("reports each broken line as file:line json-malformed, in line order, and gives no verdicts", () => {
    const r = checkResultFile(bytes, resultPath, {
      modelName: model,
      testCategory: "multi_turn_base",
      inputs,
      process: newEvaluatorProcess(),
      renderScore: true,
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((p) => [p.code, p.file, p.line])).toEqual(broken.map((i) => ["json-malformed", resultPath, i + 1]));
    expect(r.problems[0].message).toMatch(/^`result` is not JSON: /);
  });

  it("checks the same file normally once the lines are repaired", () => {
    const r = checkResultFile(new Uint8Array(readFileSync(resultPath)), resultPath, {
      modelName: model,
      testCategory: "multi_turn_base",
      inputs,
      process: newEvaluatorProcess(),
      renderScore: false,
    });
    expect(r.ok && r.value.total).toBe(200);
  });
});

describe("prepareCategory: function docs are parsed only where a held-out function needs them (real BFCL v4 data)", () => {
  const data = bfclDataDir();
  const docs = new Map(
    Object.keys(multiTurnDocFiles).map((c) => [c, readFileSync(join(data, docFile(c as keyof typeof multiTurnDocFiles)), "utf8")]),
  );
  const broken = new Map(docs).set("GorillaFileSystem", "{not json");
  const prepare = (category: "base" | "miss_func", d: ReadonlyMap<string, string>) =>
    prepareCategory(
      readFileSync(join(data, questionsFile("v4", category)), "utf8"),
      "questions",
      readFileSync(join(data, answersFile("v4", category)), "utf8"),
      "answers",
      d,
    );

  it("base needs no docs: a malformed doc file does not stop it", () => {
    const r = prepare("base", broken);
    expect(r.ok && r.value.questions.size).toBe(200);
  });
  it("miss_func reports the malformed doc file (GorillaFileSystem is involved in held-out entries)", () => {
    const r = prepare("miss_func", broken);
    expect(!r.ok && r.problems[0]).toMatchObject({ code: "json-malformed", file: "GorillaFileSystem", line: 1 });
  });
  it("miss_func with the real docs replaces held-out names by their docs (multi_turn_miss_func_0)", () => {
    const r = prepare("miss_func", docs);
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    const missed = r.value.questions.get("multi_turn_miss_func_0")?.scorePrompt.get("missed_function");
    const firstTurn = (missed as { values(): unknown[] }).values()[0] as { get(k: string): unknown }[];
    expect(typeof firstTurn[0].get("name")).toBe("string");
    expect(typeof firstTurn[0].get("description")).toBe("string");
  });
});

describe("checkResultFile: a line whose inference_log is not JSON (raw control character), real 120b base file", () => {
  const inputs = baseInputs();
  const lines = readFileSync(resultPath, "utf8").split("\n");
  const i = lines.findIndex((l) => l.startsWith('{"id": "multi_turn_base_1",'));
  lines[i] = lines[i].replace('"inference_log": [', '"inference_log": ["a\u0001b", ');
  const bytes = new TextEncoder().encode(lines.join("\n"));

  it("is reported as file:line json-malformed with Python's message when its score line is rendered", () => {
    const verdictOnly = checkResultFile(bytes, resultPath, {
      modelName: model,
      testCategory: "multi_turn_base",
      inputs,
      process: newEvaluatorProcess(),
      renderScore: false,
    });
    // the checker never reads inference_log, so verdicts alone do not see it
    expect(verdictOnly.ok).toBe(true);
    const r = checkResultFile(bytes, resultPath, {
      modelName: model,
      testCategory: "multi_turn_base",
      inputs,
      process: newEvaluatorProcess(),
      renderScore: true,
    });
    // multi_turn_base_1 fails for this model (it is in the stored score file), so its score line is rendered
    expect(verdictOnly.ok && verdictOnly.value.verdicts.find((v) => v.id === "multi_turn_base_1")?.valid).toBe(false);
    expect(!r.ok && r.problems.map((p) => [p.code, p.line])).toEqual([["json-malformed", i + 1]]);
    expect(!r.ok && r.problems[0].message).toMatch(/^line is not JSON: Invalid control character at: line 1 column \d+/);
  });
});

describe("checkResultFile: calls that name Python builtins, on the real 120b base file", () => {
  const inputs = baseInputs();
  /** The real file with extra first steps in multi_turn_base_1 (a failing entry, so its score line shows every model result). */
  const withSteps = (steps: unknown[]): Uint8Array => {
    const lines = readFileSync(resultPath, "utf8").split("\n");
    const i = lines.findIndex((l) => l.startsWith('{"id": "multi_turn_base_1",'));
    const line = JSON.parse(lines[i]);
    line.result[0].unshift(...steps);
    lines[i] = JSON.stringify(line);
    return new TextEncoder().encode(lines.join("\n"));
  };
  const modelResults = (bytes: Uint8Array) => {
    const r = checkResultFile(bytes, resultPath, {
      modelName: model,
      testCategory: "multi_turn_base",
      inputs,
      process: newEvaluatorProcess(),
      renderScore: true,
    });
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    const line = text(r.value.scoreFile)
      .split("\n")
      .find((l) => l.includes('"id": "multi_turn_base_1"'));
    const error = JSON.parse(line as string).error;
    const results: string[] =
      error.details?.["model_response (including all previous turns)"] ??
      error.execution_result.flatMap((t: { model: string[][] }) => t.model.flat());
    return { results, warnings: r.value.warnings };
  };

  it("gives CPython's own errors and results (exec(), len(obj=…), print(), dict(…)) with no warning", () => {
    const { results, warnings } = modelResults(
      withSteps([[{ exec: "{}" }], [{ len: '{"obj": [1, 2]}' }], [{ print: '{"end": ""}' }], [{ dict: '{"a": 1}' }]]),
    );
    expect(results.slice(0, 4)).toEqual([
      "Error during execution: exec() takes at least 1 positional argument (0 given)",
      "Error during execution: len() takes no keyword arguments",
      "None",
      '{"a": 1}',
    ]);
    expect(warnings).toEqual([]);
  });

  it("warns, with file:line, where the result depends on BFCL's machine (open(file=…))", () => {
    const bytes = withSteps([[{ open: '{"file": "notes.txt"}' }]]);
    const { results, warnings } = modelResults(bytes);
    expect(results[0]).toBe("Error during execution: [Errno 2] No such file or directory: 'notes.txt'");
    const line =
      text(bytes)
        .split("\n")
        .findIndex((l) => l.startsWith('{"id":"multi_turn_base_1",')) + 1;
    expect(line).toBeGreaterThan(0);
    expect(warnings).toEqual([
      expect.objectContaining({
        code: "call-machine-dependent",
        severity: "warning",
        file: resultPath,
        line,
        message: expect.stringContaining("multi_turn_base_1: "),
      }),
    ]);
  });
});
