/**
 * `check` on a prompting model's run with no `--decoder`: the real gpt-oss-120b run's calls, rewritten as
 * Python-call text under a registry prompting model's folder and an unknown one, get the prompting decoder and
 * the verdicts the FC records get. More in this folder's README.md.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryIo } from "../cli/io.js";
import { runCli } from "../cli/program.js";
import { renderAsPythonCalls } from "../testing/replay.js";
import { bfclDataDir, rolloutRunDir } from "../testing/shared.js";

const CATEGORIES = ["base", "miss_func", "miss_param"] as const;
/** A prompting-mode key of BFCL's registry (OpenAIResponsesHandler, not FC). */
const REGISTRY_FOLDER = "gpt-4o-2024-11-20";
/** A folder BFCL's registry does not know. */
const UNKNOWN_FOLDER = "acme_prompting-model";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-check-prompting-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * The run's entries whose every step has a Python-call rendering, written twice: as
 * recorded (FC records) and as prompting text. An entry with a step that has no
 * rendering (arguments that are not a JSON object, a name that is not an identifier) is
 * left out of both: a prompting model could not have written it.
 */
function buildTrees(): { fc: string; prompting: string; kept: Record<string, number> } {
  const source = join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b", "multi_turn");
  const fc = join(tmp, "fc");
  const prompting = join(tmp, "prompting");
  const kept: Record<string, number> = {};
  for (const category of CATEGORIES) {
    const name = `BFCL_v4_multi_turn_${category}_result.json`;
    const fcLines: string[] = [];
    const textLines: string[] = [];
    for (const l of readFileSync(join(source, name), "utf8").split("\n")) {
      if (l.trim() === "") continue;
      const line = JSON.parse(l) as { result: unknown };
      if (!Array.isArray(line.result)) continue;
      let renderable = true;
      const result = (line.result as unknown[][]).map((turn) =>
        turn.map((step) => {
          if (!Array.isArray(step)) return step;
          const text = renderAsPythonCalls(step);
          if (text === null) renderable = false;
          return text;
        }),
      );
      if (!renderable) continue;
      fcLines.push(l);
      textLines.push(JSON.stringify({ ...line, result }));
    }
    kept[category] = fcLines.length;
    const write = (root: string, folder: string, lines: string[]) => {
      mkdirSync(join(root, folder, "multi_turn"), { recursive: true });
      writeFileSync(join(root, folder, "multi_turn", name), lines.join("\n") + "\n");
    };
    write(fc, "openai_gpt-oss-120b", fcLines);
    write(prompting, REGISTRY_FOLDER, textLines);
    write(prompting, UNKNOWN_FOLDER, textLines);
  }
  return { fc, prompting, kept };
}

type CheckedFile = {
  folder: string;
  category: string;
  entries: number;
  correct: number;
  decoder: { name: string; source: string; reason: string };
  decodeHealth: { toolLooking: number; failed: number };
};

/** `check --format json` on a tree, writing score files under `out`. */
async function check(results: string, out: string, extra: string[] = []): Promise<{ code: number; err: string; files: CheckedFile[] }> {
  const io = memoryIo();
  const code = await runCli(["check", "--results", results, "--bfcl-data", bfclDataDir(), "--out", out, "--format", "json", ...extra], io);
  const doc = JSON.parse(io.out.join("")) as { files: CheckedFile[] };
  // the line saying what --out wrote is left aside here
  const written = new RegExp(`^note: wrote ${out} \\(\\d+ BFCL score files of \\d+ models?\\) \\[written\\]\n`, "m");
  return { code, err: io.err.join("").replace(written, ""), files: doc.files };
}

/** The failing ids of every score file written below `out`, per model folder and category. */
function failingIds(out: string): Map<string, string[]> {
  const ids = new Map<string, string[]>();
  for (const folder of readdirSync(out)) {
    for (const file of readdirSync(join(out, folder, "multi_turn")).sort()) {
      const category = /^BFCL_v4_multi_turn_(\w+)_score\.json$/.exec(file)![1];
      const lines = readFileSync(join(out, folder, "multi_turn", file), "utf8")
        .trimEnd()
        .split("\n")
        .slice(1);
      ids.set(
        `${folder} ${category}`,
        lines.map((l) => (JSON.parse(l) as { id: string }).id),
      );
    }
  }
  return ids;
}

describe("check on a prompting run without --decoder", () => {
  it("picks the prompting decoder (registry key, or detected and said on stderr) and gives the verdicts of --decoder prompting, which are the FC run's", async () => {
    const { fc, prompting, kept } = buildTrees();
    expect(Object.values(kept).every((n) => n > 150)).toBe(true);

    const chosen = await check(prompting, join(tmp, "out-chosen"));
    const forced = await check(prompting, join(tmp, "out-forced"), ["--decoder", "prompting"]);
    const asFc = await check(fc, join(tmp, "out-fc"));

    // the detected folder gets one line on stderr; the registry folder needs none
    expect(chosen.err.split("\n")).toEqual([
      expect.stringMatching(
        new RegExp(
          `^note: ${UNKNOWN_FOLDER}: decoder prompting \\(not in BFCL's model registry; \\d+ of 200 sampled text steps decode to calls with prompting[^)]*\\) \\[decoder-detected\\]$`,
        ),
      ),
      "",
    ]);
    expect(forced.err).toBe("");
    const decoders = (files: CheckedFile[]) => files.map((f) => `${f.folder} ${f.category} ${f.decoder.name} ${f.decoder.source}`);
    expect(decoders(chosen.files)).toEqual([
      ...CATEGORIES.map((c) => `${UNKNOWN_FOLDER} ${c} prompting detected`),
      ...CATEGORIES.map((c) => `${REGISTRY_FOLDER} ${c} prompting registry`),
    ]);
    expect(chosen.files[3].decoder.reason).toBe(`BFCL registry key ${REGISTRY_FOLDER}: OpenAIResponsesHandler, prompting mode`);
    expect(decoders(forced.files)).toEqual([
      ...CATEGORIES.map((c) => `${UNKNOWN_FOLDER} ${c} prompting flag`),
      ...CATEGORIES.map((c) => `${REGISTRY_FOLDER} ${c} prompting flag`),
    ]);
    expect([chosen.code, forced.code, asFc.code]).toEqual([0, 0, 0]);

    // every tool-looking step decodes
    for (const f of chosen.files) {
      expect(f.decodeHealth.toolLooking).toBeGreaterThan(500);
      expect(f.decodeHealth.failed, `${f.folder} ${f.category}`).toBe(0);
    }

    // the same verdicts with and without the flag, entry by entry, in both folders
    const verdicts = (files: CheckedFile[]) => files.map((f) => `${f.folder} ${f.category} ${f.entries} ${f.correct}`);
    expect(verdicts(chosen.files)).toEqual(verdicts(forced.files));
    const chosenIds = failingIds(join(tmp, "out-chosen"));
    expect(chosenIds).toEqual(failingIds(join(tmp, "out-forced")));

    // and they are the verdicts the same calls get as FC records
    const fcIds = failingIds(join(tmp, "out-fc"));
    expect(asFc.files.map((f) => f.entries)).toEqual(CATEGORIES.map((c) => kept[c]));
    for (const c of CATEGORIES) {
      const fcFailing = fcIds.get(`openai_gpt-oss-120b ${c}`);
      expect(fcFailing!.length).toBeGreaterThan(0);
      expect(chosenIds.get(`${REGISTRY_FOLDER} ${c}`), c).toEqual(fcFailing);
      expect(chosenIds.get(`${UNKNOWN_FOLDER} ${c}`), c).toEqual(fcFailing);
    }

    // a wrong decoder on the same text cannot pass silently
    const wrong = await check(prompting, join(tmp, "out-wrong"), ["--decoder", "fc"]);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain("[decode-failures]");
  }, 120_000);
});
