// One run reads the same in every command: the decoder each model is read with, and why,
// and the warnings its files give, come from the one pipeline (app/pipeline.ts).
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decoderByName } from "../../bfcl/decode/index.js";
import { readTwin } from "../../decision/read-twin.js";
import { toolsOfClasses } from "../../simulator/irrelevance.js";
import { projectRoot, sharedPath } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

async function json(argv: string[]) {
  const io = memoryIo({}, projectRoot);
  const code = await runCli([...argv, "--format", "json"], io);
  return { code, doc: JSON.parse(io.out.join("")), err: io.err.join("") };
}

interface Decoder {
  name: string;
  source: string;
  reason: string;
}

describe("score and check choose each model's decoder alike (every model of the real runs)", () => {
  it.each([
    ["gpt-oss, both runs (v4)", sharedPath("rollouts", "gpt-oss"), sharedPath("bfcl-v4")],
    ["xLAM (v3)", sharedPath("rollouts", "xlam-v3"), sharedPath("bfcl-v3")],
  ])("%s: the same decoder, for the same reason", async (_, results, data) => {
    const score = await json(["score", "--results", results, "--bootstrap", "0"]);
    const check = await json(["check", "--results", results, "--bfcl-data", data]);
    const scored = new Map<string, Decoder>(score.doc.models.map((m: { model: string; decoder: Decoder }) => [m.model, m.decoder]));
    const checked = new Map<string, Decoder>();
    for (const f of check.doc.files as { folder: string; decoder: Decoder }[]) {
      // one decoder per model folder, whatever the file
      if (checked.has(f.folder)) expect(f.decoder).toEqual(checked.get(f.folder));
      checked.set(f.folder, f.decoder);
    }
    expect(scored.size).toBeGreaterThan(0);
    expect([...checked.keys()].sort()).toEqual([...scored.keys()].sort());
    for (const [model, decoder] of scored) expect([model, checked.get(model)]).toEqual([model, decoder]);
  });
});

/** A BFCL data file's entries by id (JSON Lines). */
function entries(file: string): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const entry = JSON.parse(line) as Record<string, unknown>;
    out.set(entry.id as string, entry);
  }
  return out;
}

describe("score and check count the same tool-call attempts and decode failures (every model of the real runs)", () => {
  it.each([
    ["gpt-oss, both runs (v4)", sharedPath("rollouts", "gpt-oss"), sharedPath("bfcl-v4"), "v4" as const],
    ["xLAM (v3)", sharedPath("rollouts", "xlam-v3"), sharedPath("bfcl-v3"), "v3" as const],
  ])("%s: each file's decode health in check is score's reading of every turn check decodes", async (_, results, data, version) => {
    const score = await json(["score", "--results", results, "--bootstrap", "0"]);
    const check = await json(["check", "--results", results, "--bfcl-data", data]);
    const decoderOf = new Map<string, string>(score.doc.models.map((m: { model: string; decoder: Decoder }) => [m.model, m.decoder.name]));
    const files = check.doc.files as {
      file: string;
      folder: string;
      category: string;
      decodeHealth: { steps: number; toolLooking: number; failed: number };
    }[];
    expect(files.length).toBeGreaterThan(0);
    let failed = 0;
    for (const f of files) {
      const decoder = decoderByName(decoderOf.get(f.folder)!)!;
      const questions = entries(join(data, `BFCL_${version}_multi_turn_${f.category}.json`));
      const answers = entries(join(data, "possible_answer", `BFCL_${version}_multi_turn_${f.category}.json`));
      const counted = { steps: 0, toolLooking: 0, failed: 0 };
      for (const line of readFileSync(f.file, "utf8").split("\n")) {
        if (line.trim() === "") continue;
        const { id, result } = JSON.parse(line) as { id: string; result: unknown };
        // BFCL's checker decodes the steps of a rollout with the reference's turn count (not an error line, not force-terminated)
        if (!Array.isArray(result) || result.length !== (answers.get(id)!.ground_truth as unknown[]).length) continue;
        const tools = toolsOfClasses(questions.get(id)!.involved_classes as string[], version);
        const rollout = { kind: "turns" as const, turns: result as unknown[][], turnCount: result.length };
        for (let turn = 0; turn < result.length; turn++) {
          const twin = readTwin(rollout, turn, tools, decoder);
          counted.steps += Array.isArray(result[turn]) ? (result[turn] as unknown[]).length : 0;
          counted.toolLooking += twin.toolCallSteps;
          counted.failed += twin.decodeFailures;
        }
      }
      expect([f.folder, f.category, f.decodeHealth]).toMatchObject([f.folder, f.category, counted]);
      failed += counted.failed;
    }
    // the readings must have something to agree on
    expect(failed).toBeGreaterThan(0);
  });
});

describe("score and report give a model the same warnings", () => {
  it("2025-11-12-main, both models: every warning, with its file and line", async () => {
    const run = sharedPath("rollouts", "gpt-oss", "2025-11-12-main");
    const score = await json(["score", "--results", run, "--bootstrap", "0"]);
    const report = await json([
      "report",
      "--results",
      run,
      "--bootstrap",
      "0",
      "--out",
      join(mkdtempSync(join(tmpdir(), "twinscore-same-")), "r.html"),
    ]);
    const fromScore = score.doc.models.map((m: { model: string; problems: unknown[] }) => [m.model, m.problems]);
    const fromReport = report.doc.modelProblems.map((m: { model: string; problems: unknown[] }) => [m.model, m.problems]);
    expect(fromScore.map(([m, p]: [string, unknown[]]) => [m, p.length])).toEqual([
      ["openai_gpt-oss-120b", 12],
      ["openai_gpt-oss-20b", 30],
    ]);
    expect(fromReport).toEqual(fromScore);
  });
});

describe("score counts the table's pairs whatever else it is asked", () => {
  it("2025-11-12-main, both models: the same counts of error lines, short rollouts and decode failures with BFCL's verdicts, with --sensitivity and with neither", async () => {
    const run = sharedPath("rollouts", "gpt-oss", "2025-11-12-main");
    const countsOf = async (results: string, extra: string[]) => {
      const { doc } = await json(["score", "--results", results, "--bootstrap", "0", ...extra]);
      return (doc.models as { counts: unknown }[]).map((m) => m.counts);
    };
    // a result root is no run: no score/ folder is looked for beside it
    const plain = await countsOf(join(run, "result"), []);
    expect(plain).toHaveLength(2);
    // gpt-oss-120b's pairs of Table 1: 9 error lines, one short rollout, 16 undecodable anchor steps
    expect(plain[0]).toEqual({ decodeFailures: 16, shortRollouts: 1, inferenceErrors: 9 });
    expect(await countsOf(run, [])).toEqual(plain); // the run's score/ read unasked
    expect(await countsOf(join(run, "result"), ["--scores", join(run, "score")])).toEqual(plain);
    expect(await countsOf(join(run, "result"), ["--sensitivity"])).toEqual(plain);
  }, 120_000);
});
