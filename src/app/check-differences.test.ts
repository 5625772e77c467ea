/**
 * `check` names what makes entries differ from BFCL's stored score files, on the real runs:
 * the xLAM v3 run, whose files BFCL checked in a process that had already filled
 * `post_tweet`'s shared default list, and gpt-oss lines whose stored score line is made as
 * a newer Python (a suggestion suffix) or BFCL's classes as released (echo creating a
 * missing file) would have written it.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryIo } from "../cli/io.js";
import { runCli } from "../cli/program.js";
import { readCategoryInputs } from "./bfcl-inputs.js";
import { checkResultFile } from "../simulator/run-check.js";
import { newEvaluatorProcess } from "../simulator/runtime.js";
import { bfclDataDir, rolloutRunDir, sharedPath } from "../testing/shared.js";
import { nodeHost } from "../io/host.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-check-differences-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Explained = { cause: string; detail: string; ids: string[] };
type Doc = { files: { category: string; agreement: { disagreeingIds: string[]; explained: Explained[] } }[] };

async function check(results: string, scores: string, data: string): Promise<{ code: number; err: string; doc: Doc }> {
  const io = memoryIo();
  const code = await runCli(
    ["check", "--results", results, "--scores", scores, "--bfcl-data", data, "--format", "json", "--threads", "1"],
    io,
  );
  return { code, err: io.err.join(""), doc: JSON.parse(io.out.join("")) as Doc };
}

/** A copy of one gpt-oss model's result and score file of a category, as a run in `tmp/<name>`. */
function copyRun(
  name: string,
  run: "2025-11-12-main" | "2025-11-12-harmony-fixes",
  model: string,
  category: string,
): { results: string; scores: string; result: string; score: string } {
  const results = join(tmp, name, "result");
  const scores = join(tmp, name, "score");
  const file = (root: string, kind: string) => join(root, model, "multi_turn", `BFCL_v4_multi_turn_${category}_${kind}.json`);
  for (const [root, kind] of [
    [results, "result"],
    [scores, "score"],
  ] as const) {
    mkdirSync(join(root, model, "multi_turn"), { recursive: true });
    copyFileSync(file(join(rolloutRunDir(run), kind), kind), file(root, kind));
  }
  return { results, scores, result: file(results, "result"), score: file(scores, "score") };
}

describe("check names the causes of differences from BFCL's stored score files", () => {
  it("xLAM v3: all 15 differing entries (3 verdicts) are post_tweet's shared default list as BFCL's process had left it, @technewsworld", async () => {
    const xlam = (...p: string[]) => sharedPath("rollouts", "xlam-v3", ...p);
    const { doc, err } = await check(xlam("result"), xlam("score"), sharedPath("bfcl-v3"));
    expect(doc.files.map((f) => f.agreement.disagreeingIds.length)).toEqual([4, 8, 3]);
    for (const f of doc.files) {
      expect(f.agreement.explained).toEqual([
        { cause: "shared-default-start", detail: expect.stringContaining('mentions=["@technewsworld"]'), ids: f.agreement.disagreeingIds },
      ]);
    }
    expect(err.match(/\[difference-shared-default-start\]/g)?.length).toBe(3);
  }, 120_000);

  it("a message that differs only by Python's 'Did you mean' suffix (a real 20b line that also calls an undefined name, its stored line worded by a newer Python)", async () => {
    const run = copyRun("suggestion", "2025-11-12-harmony-fixes", "openai_gpt-oss-20b", "base");
    const id = "multi_turn_base_2";
    const results = readFileSync(run.result, "utf8").split("\n");
    const r = results.findIndex((l) => l.startsWith(`{"id": "${id}",`));
    const line = JSON.parse(results[r]);
    line.result[0].unshift([{ head: "{}" }]);
    results[r] = JSON.stringify(line);
    writeFileSync(run.result, results.join("\n"));
    // the score file BFCL writes for the changed file, then the same words as Python 3.12+ put them
    const out = join(tmp, "suggestion-out");
    expect(
      await runCli(["check", "--results", run.results, "--bfcl-data", bfclDataDir(), "--out", out, "--threads", "1"], memoryIo()),
    ).toBe(0);
    const written = readFileSync(join(out, "openai_gpt-oss-20b", "multi_turn", "BFCL_v4_multi_turn_base_score.json"), "utf8").split("\n");
    const s = written.findIndex((l) => l.startsWith(`{"id": "${id}",`));
    expect(JSON.stringify(JSON.parse(written[s]).error)).toContain("name 'head' is not defined");
    written[s] = written[s].replaceAll("name 'head' is not defined", "name 'head' is not defined. Did you mean: 'help'?");
    writeFileSync(run.score, written.join("\n"));
    const { doc, err } = await check(run.results, run.scores, bfclDataDir());
    expect(doc.files[0].agreement.disagreeingIds).toEqual([id]);
    expect(doc.files[0].agreement.explained).toEqual([
      { cause: "python-suggestion", detail: expect.stringContaining("Did you mean"), ids: [id] },
    ]);
    expect(err).toContain("[difference-python-suggestion]");
  }, 120_000);

  it("an entry scored by BFCL's classes as v4 released them, where echo still created a missing file (real 20b line): the change is named", async () => {
    const run = copyRun("released", "2025-11-12-harmony-fixes", "openai_gpt-oss-20b", "base");
    const inputs = readCategoryInputs(bfclDataDir(), "v4", "base", nodeHost());
    if (!inputs.ok) throw new Error(JSON.stringify(inputs.problems));
    // the score file BFCL's v4 code as released writes for this file (its classes are v3 final's, byte for byte)
    const released = checkResultFile(new Uint8Array(readFileSync(run.result)), run.result, {
      modelName: "openai_gpt-oss-20b",
      testCategory: "multi_turn_base",
      inputs: inputs.value,
      process: newEvaluatorProcess(undefined, true, "v4", undefined, "v3"),
      renderScore: true,
    });
    if (!released.ok) throw new Error(JSON.stringify(released.problems));
    const releasedLines = new TextDecoder().decode(released.value.scoreFile ?? new Uint8Array()).split("\n");
    const lines = readFileSync(run.score, "utf8").split("\n");
    const i = lines.findIndex((l) => l.includes("echo: cannot write to 'IdeasArchive.txt': No such file"));
    expect(i).toBeGreaterThan(0);
    const id = JSON.parse(lines[i]).id as string;
    const old = releasedLines.find((l) => l.startsWith(`{"id": "${id}",`));
    expect(old).toBeDefined();
    expect(JSON.stringify(JSON.parse(old as string).error)).not.toContain("echo: cannot write to 'IdeasArchive.txt'");
    lines[i] = old as string;
    writeFileSync(run.score, lines.join("\n"));
    const { doc, err } = await check(run.results, run.scores, bfclDataDir());
    expect(doc.files[0].agreement.disagreeingIds).toEqual([id]);
    const [explained] = doc.files[0].agreement.explained;
    expect(explained).toEqual({
      cause: "executor-change",
      detail: expect.stringContaining("659c7165 (2025-10-19) GorillaFileSystem.echo"),
      ids: [id],
    });
    expect(explained.detail).toContain("self._current_dir._add_file(file_name, content)");
    expect(err).toContain("[difference-executor-change]");
  }, 120_000);
});
