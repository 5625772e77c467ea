// report says which models' decoders were detected from their steps, in the same note
// score prints for the same inputs: on the real gpt-oss run (its folders are not in BFCL's
// registry) and on the real xLAM v3 run linked under a folder name the registry lacks.
import { mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot, rolloutRunDir, sharedPath } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

/** The `[decoder-detected]` lines a command prints on stderr, and its exit code. */
async function decoderNotes(argv: string[]): Promise<{ code: number; notes: string[] }> {
  const io = memoryIo({ TWINSCORE_PYTHON: "/nonexistent/python3" }, projectRoot);
  const code = await runCli(argv, io);
  return {
    code,
    notes: io.err
      .join("")
      .split("\n")
      .filter((l) => l.endsWith("[decoder-detected]")),
  };
}

describe("report prints score's decoder-detected note", () => {
  const out = () => join(mkdtempSync(join(tmpdir(), "twinscore-report-decoder-")), "report.html");

  it("on the real gpt-oss run: one note per model, the same lines as score's", async () => {
    const run = rolloutRunDir("2025-11-12-main");
    const score = await decoderNotes(["score", "--results", run, "--bootstrap", "0", "--format", "json"]);
    const report = await decoderNotes(["report", "--results", run, "--bootstrap", "0", "--out", out()]);
    // written, with an error met: gpt-oss-20b has too many undecided pairs for a headline
    expect([score.code, report.code]).toEqual([1, 1]);
    expect(score.notes).toEqual([
      "note: openai_gpt-oss-120b: decoder fc (not in BFCL's model registry; 197 of 200 sampled record steps decode to calls with fc) [decoder-detected]",
      "note: openai_gpt-oss-20b: decoder fc (not in BFCL's model registry; 198 of 200 sampled record steps decode to calls with fc) [decoder-detected]",
    ]);
    expect(report.notes).toEqual(score.notes);
  });

  it("on the real xLAM run under a folder name BFCL's registry lacks; none under its own name, whose decoder the registry gives", async () => {
    const real = sharedPath("rollouts", "xlam-v3", "result", "Salesforce_Llama-xLAM-2-8b-fc-r");
    const renamed = join(mkdtempSync(join(tmpdir(), "twinscore-renamed-model-")), "result");
    mkdirSync(renamed);
    symlinkSync(real, join(renamed, "my-xlam-finetune"));
    const score = await decoderNotes(["score", "--results", renamed, "--bootstrap", "0", "--format", "json"]);
    const report = await decoderNotes(["report", "--results", renamed, "--bootstrap", "0", "--out", out()]);
    expect(report.code).toBe(0);
    expect(score.notes).toHaveLength(1);
    expect(score.notes[0]).toMatch(/^note: my-xlam-finetune: decoder \S+ \(not in BFCL v3's model registry; .*\) \[decoder-detected\]$/);
    expect(report.notes).toEqual(score.notes);
    const registered = await decoderNotes(["report", "--results", join(real, ".."), "--bootstrap", "0", "--out", out()]);
    expect([registered.code, registered.notes]).toEqual([0, []]);
  });
});
