// One run reads the same in every command: the decoder each model is read with, and why,
// and the warnings its files give, come from the one pipeline (app/pipeline.ts).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
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

describe("score and report give a model the same warnings", () => {
  it("2025-11-12-main, both models: every warning, with its file and line", async () => {
    const run = sharedPath("rollouts", "gpt-oss", "2025-11-12-main");
    const score = await json(["score", "--results", run, "--bootstrap", "0"]);
    const report = await json(["report", "--results", run, "--bootstrap", "0", "--out", join(mkdtempSync(join(tmpdir(), "twinscore-same-")), "r.html")]);
    const fromScore = score.doc.models.map((m: { model: string; problems: unknown[] }) => [m.model, m.problems]);
    const fromReport = report.doc.modelProblems.map((m: { model: string; problems: unknown[] }) => [m.model, m.problems]);
    expect(fromScore.map(([m, p]: [string, unknown[]]) => [m, p.length])).toEqual([
      ["openai_gpt-oss-120b", 12],
      ["openai_gpt-oss-20b", 30],
    ]);
    expect(fromReport).toEqual(fromScore);
  });
});
