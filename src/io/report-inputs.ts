/**
 * Loading what `twinscore report` shows, run by run: each `--results` tree is scored on
 * its own (so the same model directory in two runs stays two models), its score files
 * read when given. Scoring and verdicts come from `loadRunInputs` (the path `verify` and
 * `compare` use).
 */
import { decoderByName, type DecoderName } from "../bfcl/decode/index.js";
import { basename, dirname, resolve } from "node:path";
import { problem, type Problem } from "../messages/index.js";
import { readingCounts } from "../decision/score.js";
import { readingById, readingPairs, selectUnder } from "../decision/readings.js";
import type { SideRule } from "../decision/types.js";
import type { Manifest } from "../pairs/types.js";
import type { ReportRunInput } from "../report/assemble.js";
import { loadRunInputs } from "./scores-run.js";
import { workaroundForModel, type WorkaroundData } from "./workaround-run.js";
import { modelCompletions, modelEmptyTurns, readAlignedData, type AlignedData } from "./aligned-run.js";
import type { TwinCompletion } from "../official/aligned.js";
import { twinCompletions } from "../simulator/prefix-check.js";
import type { EntryReadings } from "../simulator/run-check.js";

/** One `--results` tree and its optional `--scores` tree. */
export interface ReportRunRequest {
  readonly resultDir: string;
  readonly scoreDir: string | null;
}

/**
 * A run's label: the directory's base name, or its parent's when the directory is a
 * BFCL `result` folder (…/2025-11-12-main/result → 2025-11-12-main).
 */
export function runLabel(dir: string): string {
  const abs = resolve(dir);
  const name = basename(abs);
  return name === "result" ? basename(dirname(abs)) : name;
}

/** Labels for the runs, made unique by a `#2`, `#3` suffix when two trees share a name. */
export function runLabels(dirs: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return dirs.map((d) => {
    const label = runLabel(d);
    const k = (seen.get(label) ?? 0) + 1;
    seen.set(label, k);
    return k === 1 ? label : `${label}#${k}`;
  });
}

/** Load every run; problems are returned, never thrown. `progress` hears one line per step. */
export function loadReportRuns(
  runs: readonly ReportRunRequest[],
  options: {
    models: readonly string[];
    manifest: Manifest;
    cwd: string;
    /** BFCL data folder for the workaround credit (Table F1) and the aligned numbers, or null to leave them out. */
    bfclDataDir?: string | null;
    /** How sides that are not decisions are read (the workaround credit replays the pairs scored under it). */
    rule: SideRule;
    progress?: (line: string) => void;
    /** `--decoder`: one decoder for every model; absent, each model folder's own. */
    decoder?: DecoderName;
  },
): { runs: ReportRunInput[]; problems: Problem[] } {
  const labels = runLabels(runs.map((r) => resolve(options.cwd, r.resultDir)));
  const table1 = readingById("table-1")!;
  const pairs = readingPairs(options.manifest, table1);
  const out: ReportRunInput[] = [];
  const problems: Problem[] = [];
  let workaroundData: WorkaroundData | null = null;
  let alignedData: AlignedData | null = null;
  if (options.bfclDataDir) {
    options.progress?.(`reading BFCL data for the workaround credit and the aligned numbers (${options.bfclDataDir})`);
    const data = readAlignedData(options.bfclDataDir);
    if (data.ok) {
      alignedData = data.value;
      workaroundData = { version: data.value.version, base: data.value.inputs.base, missFunc: data.value.inputs.miss_func };
    } else problems.push(...data.problems);
  }
  runs.forEach((run, i) => {
    options.progress?.(`scoring ${labels[i]} (${run.resultDir})`);
    const loaded = loadRunInputs({
      resultDirs: [run.resultDir],
      scoreDirs: run.scoreDir === null ? [] : [run.scoreDir],
      models: options.models,
      manifest: options.manifest,
      cwd: options.cwd,
      ...(options.decoder !== undefined ? { decoder: options.decoder } : {}),
    });
    problems.push(...loaded.problems);
    for (const name of loaded.absent) {
      problems.push(problem("model-missing", `run ${labels[i]}: model ${name} has no complete set of result files (base, miss_func, miss_param)`));
    }
    const models = loaded.models.map((m) => {
      let workaround = null;
      const missFuncFile = m.resultFiles.miss_func;
      if (workaroundData !== null && missFuncFile !== undefined) {
        options.progress?.(`replaying miss_func attempts of ${labels[i]}/${m.inputs.model} (workaround credit)`);
        const records = selectUnder(m.inputs.records, options.manifest, table1, options.rule).scored.map((x) => x.record);
        const score = { model: m.inputs.model, counts: readingCounts(records), records };
        const w = workaroundForModel(score, pairs, missFuncFile, workaroundData, m.decoder === undefined ? undefined : decoderByName(m.decoder));
        if (w.ok) workaround = w.value;
        else problems.push(...w.problems);
      }
      let completions: Map<string, TwinCompletion> | null = null;
      let emptyTurns: Map<string, EntryReadings[]> | null = null;
      if (alignedData !== null) {
        options.progress?.(`checking ${labels[i]}/${m.inputs.model} with BFCL's checker (turn prefixes, empty-reference turns)`);
        const files = { modelName: m.folder, files: m.resultFiles, decoder: m.decoder };
        const prefixes = modelCompletions(files, pairs, alignedData);
        if (prefixes.ok) {
          completions = twinCompletions(prefixes.value.prefixes);
          problems.push(...prefixes.value.problems);
        } else problems.push(...prefixes.problems);
        const entries = modelEmptyTurns(files, alignedData);
        if (entries.ok) {
          emptyTurns = entries.value.readings;
          problems.push(...entries.value.problems);
        } else problems.push(...entries.problems);
      }
      return { inputs: m.inputs, workaround, completions, emptyTurns, scoreFiles: Object.values(m.official.scoreFiles).sort(), resultFiles: Object.values(m.resultFiles).sort() };
    });
    out.push({ label: labels[i], resultDir: run.resultDir, scoreDir: run.scoreDir, models });
  });
  return { runs: out, problems };
}
