/**
 * Replay fidelity: `run --items all` against the replay of each of the four recorded gpt-oss runs reproduces
 * every recorded line byte for byte but its latency and mode key, and `check` agrees with BFCL's stored
 * verdicts. More in this folder's README.md.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PyDict } from "../python/containers.js";
import { jsonDumps, jsonLoadsFast } from "../python/json.js";
import { loadManifest } from "../io/manifest.js";
import { runCheck } from "./check-run.js";
import { defaultScoreOptions } from "../decision/types.js";
import { bfclDataDir, rolloutRunDir, rolloutRuns } from "../testing/shared.js";
import { inProcessEndpoint, parseRecording, replayResponder, type RecordedEntry } from "../testing/replay.js";
import { runModel } from "./run/index.js";
import { inProcessRun } from "../testing/run-fixtures.js";
import { table1Numbers } from "../testing/numbers.js";
import { readForTest } from "../testing/read-models.js";
import { MODE_KEY } from "../bfcl/line-keys.js";

const manifest = (() => {
  const m = loadManifest();
  if (!m.ok) throw new Error("the committed manifest does not load");
  return m.value;
})();

const categories = ["base", "miss_func", "miss_param"] as const;
const models = ["openai_gpt-oss-120b", "openai_gpt-oss-20b"] as const;
const tmp = mkdtempSync(join(tmpdir(), "twinscore-run-replay-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function withoutKeys(line: string, drop: readonly string[]): PyDict {
  const v = jsonLoadsFast(line) as PyDict;
  for (const k of drop) v.delete(k);
  return v;
}

describe("run --items all against the replay of the recorded gpt-oss runs", () => {
  for (const run of rolloutRuns) {
    for (const model of models) {
      it(`${run} ${model}: results, tool outputs, error lines, check agreement`, async () => {
        const dir = join(rolloutRunDir(run), "result", model, "multi_turn");
        const recordedText = new Map(categories.map((c) => [c, readFileSync(join(dir, `BFCL_v4_multi_turn_${c}_result.json`), "utf8")]));
        const recording = new Map<string, RecordedEntry>();
        for (const text of recordedText.values()) for (const [id, e] of parseRecording(text)) recording.set(id, e);
        const mismatches: string[] = [];
        const apiModel = model.replace("openai_", "openai/");
        const out = join(tmp, run, "result");
        const doc = await runModel(
          inProcessRun({
            model: apiModel,
            outDir: out,
            items: "all",
            manifest,
            chat: inProcessEndpoint(replayResponder(recording, { tolerate: true, mismatches }), apiModel),
          }),
        );
        expect(doc.ok).toBe(true);
        if (!doc.ok) return;
        expect(doc.value.selected).toBe(600);

        // every tool output the executor computed equals the recorded one (the replay lists any that differs)
        expect(mismatches).toEqual([]);

        let identical = 0;
        let errorLines = 0;
        for (const c of categories) {
          const produced = readFileSync(join(out, model, "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`), "utf8")
            .trimEnd()
            .split("\n");
          const recorded = (recordedText.get(c) as string).trimEnd().split("\n");
          expect(produced.length).toBe(recorded.length);
          for (let i = 0; i < recorded.length; i++) {
            // the mode key twinscore adds at the end of each line, then the line as BFCL wrote it
            expect((jsonLoadsFast(produced[i]) as PyDict).get(MODE_KEY), produced[i].slice(0, 60)).toBe("fc");
            const p = withoutKeys(produced[i], ["latency", "traceback", MODE_KEY]);
            const r = withoutKeys(recorded[i], ["latency", "traceback"]);
            expect(p.get("id")).toBe(r.get("id"));
            const id = r.get("id") as string;
            const rResult = r.get("result");
            if (typeof rResult === "string") {
              errorLines++;
              const pResult = p.get("result");
              expect(typeof pResult, id).toBe("string");
              if (rResult.startsWith("Error during inference: Error code:")) expect(pResult, id).toBe(rResult);
              // the holdout-assertion lines: the data moved their missed_function key after the recording,
              // so the replay has no steps for them and says so in an HTTP error quoting the recorded message
              else expect(pResult, id).toContain(`the recording of ${id} is an error line without steps: ${rResult}`);
              continue;
            }
            for (const k of ["result", "input_token_count", "output_token_count"])
              expect(jsonDumps(p.get(k) ?? null), `${id} ${k}`).toBe(jsonDumps(r.get(k) ?? null));
            expect(jsonDumps(p), id).toBe(jsonDumps(r));
            identical++;
          }
        }
        console.log(`${run} ${model}: ${identical} lines identical but latency, ${errorLines} error lines, ${doc.value.requests} requests`);
        expect(identical + errorLines).toBe(600);
        expect(doc.value.errors.length).toBe(errorLines);

        const checked = await runCheck({
          resultsDir: out,
          bfclDataDir: bfclDataDir(),
          scoresDir: join(rolloutRunDir(run), "score"),
          env: {},
          cwd: "/",
        });
        expect(checked.ok).toBe(true);
        if (!checked.ok) return;
        const files = checked.value.files.filter((f) => f.model === model);
        expect(files.length).toBe(3);
        for (const f of files) {
          expect(f.agreement, f.file).not.toBeNull();
          expect(f.agreement?.entries).toBe(200);
          expect(f.agreement?.verdictAgree, `${f.file}: ${f.agreement?.disagreeingIds.join(", ")}`).toBe(200);
        }

        // --until-anchor on the scored pairs: score gives the recording's numbers, with fewer requests
        const cut = join(tmp, run, "until-anchor");
        const cutDoc = await runModel(
          inProcessRun({
            model: apiModel,
            outDir: cut,
            items: "pairs",
            manifest,
            untilAnchor: true,
            chat: inProcessEndpoint(replayResponder(recording, { tolerate: true }), apiModel),
          }),
        );
        expect(cutDoc.ok).toBe(true);
        if (!cutDoc.ok) return;
        const score = async (dir: string) => {
          const s = await readForTest([dir], { models: [model], pairs: { headline: defaultScoreOptions }, cwd: "/" });
          const records = s.models[0]?.score?.records;
          return records === undefined ? undefined : table1Numbers(records, manifest, "release");
        };
        const recordedNumbers = await score(join(rolloutRunDir(run), "result"));
        expect(recordedNumbers).toBeTruthy();
        expect(await score(cut)).toEqual(recordedNumbers);
        console.log(
          `${run} ${model} --until-anchor: ${cutDoc.value.requests} requests for the 374 items (${cutDoc.value.stoppedAtAnchor} lines stopped at their anchor), the same decision numbers`,
        );
      }, 300_000);
    }
  }
});
