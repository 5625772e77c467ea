/**
 * One job of `twinscore check`: a model folder's result files, checked in one evaluator
 * process. The same function runs on the main thread and in `check-worker.ts`, so a run
 * gives the same output whatever the thread count. Returns only plain data (counts,
 * score text, comparable verdicts), which is what crosses a thread boundary.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { answersFile, docFile, multiTurnDocFiles, questionsFile, type MultiTurnCategory } from "../bfcl/data.js";
import { err, problem, type Result } from "../messages/index.js";
import { decodePromptingStep } from "../simulator/prompting.js";
import { checkModelFiles, prepareCategory, type CategoryInputs } from "../simulator/run-check.js";
import { newEvaluatorProcess } from "../simulator/runtime.js";
import type { OurVerdict } from "../simulator/scorefile.js";
import type { LongContextData } from "../simulator/types.js";
import { readLongContext } from "./long-context.js";

/** A model folder's result files, in path order. */
export interface CheckJob {
  readonly model: string;
  readonly files: readonly { readonly path: string; readonly version: "v3" | "v4"; readonly category: MultiTurnCategory }[];
}

/** What every job of a run shares (plain data, so it can be a worker's start data). */
export interface CheckJobSettings {
  readonly dataDir: string;
  /** long_context.py to read the filler from (only when a job has long_context files). */
  readonly longContextModule: string | null;
  readonly decoder: "fc" | "prompting";
  readonly renderScore: boolean;
}

/** The checked outcome of one file, as plain data. */
export interface CheckedFileData {
  readonly total: number;
  readonly correct: number;
  readonly scoreText: string | null;
  readonly verdicts: OurVerdict[];
}

/** Per-thread caches: each category's BFCL data and the filler are read once per thread. */
export class CheckJobCache {
  readonly categories = new Map<string, Result<CategoryInputs>>();
  filler: Result<LongContextData> | null = null;
}

function readText(path: string): string | null {
  return existsSync(path) && statSync(path).isFile() ? readFileSync(path, "utf8") : null;
}

/** Read one category's questions, references and docs from the data folder. */
function loadCategory(dataDir: string, version: "v3" | "v4", category: MultiTurnCategory): Result<CategoryInputs> {
  const qRel = questionsFile(version, category);
  const aRel = answersFile(version, category);
  const qText = readText(join(dataDir, qRel));
  const aText = readText(join(dataDir, aRel));
  if (qText === null) return err(problem("file-missing", "BFCL questions file missing", { file: join(dataDir, qRel) }));
  if (aText === null) return err(problem("file-missing", "BFCL reference file missing", { file: join(dataDir, aRel) }));
  const docs = new Map<string, string>();
  for (const cls of Object.keys(multiTurnDocFiles) as (keyof typeof multiTurnDocFiles)[]) {
    const text = readText(join(dataDir, docFile(cls)));
    if (text === null) return err(problem("file-missing", "BFCL function-doc file missing", { file: join(dataDir, docFile(cls)) }));
    docs.set(cls, text);
  }
  return prepareCategory(qText, join(dataDir, qRel), aText, join(dataDir, aRel), docs);
}

/**
 * Check one model folder: per file, its outcome or the problems that stopped it (the
 * BFCL data of its category missing or malformed, a malformed result line …), in file order.
 */
export function runCheckJob(job: CheckJob, settings: CheckJobSettings, cache: CheckJobCache): Result<CheckedFileData>[] {
  const out: (Result<CheckedFileData> | null)[] = job.files.map(() => null);
  const inputs: { index: number; bytes: Uint8Array; file: string; testCategory: string; inputs: CategoryInputs }[] = [];
  let filler: LongContextData | undefined;
  job.files.forEach((f, index) => {
    const key = `${f.version}/${f.category}`;
    if (!cache.categories.has(key)) cache.categories.set(key, loadCategory(settings.dataDir, f.version, f.category));
    const cat = cache.categories.get(key) as Result<CategoryInputs>;
    if (!cat.ok) {
      out[index] = cat;
      return;
    }
    if (f.category === "long_context") {
      if (settings.longContextModule === null) {
        out[index] = err(problem("long-context-missing", "long_context result files need BFCL's long_context.py", { file: f.path }));
        return;
      }
      cache.filler ??= readLongContext(settings.longContextModule);
      if (!cache.filler.ok) {
        out[index] = cache.filler;
        return;
      }
      filler = cache.filler.value;
    }
    inputs.push({ index, bytes: readFileSync(f.path), file: f.path, testCategory: `multi_turn_${f.category}`, inputs: cat.value });
  });
  const results = checkModelFiles(inputs, {
    modelName: job.model,
    newProcess: (exact) => newEvaluatorProcess(filler, exact),
    decode: settings.decoder === "prompting" ? decodePromptingStep : undefined,
    renderScore: settings.renderScore,
  });
  results.forEach((r, i) => {
    out[inputs[i].index] = r.ok ? { ok: true, value: { total: r.value.total, correct: r.value.correct, scoreText: r.value.scoreText, verdicts: r.value.verdicts } } : r;
  });
  return out as Result<CheckedFileData>[];
}

/** Problems of a job that failed as a whole (a worker crash), one per file. */
export function failedJob(job: CheckJob, message: string): Result<CheckedFileData>[] {
  return job.files.map((f): Result<CheckedFileData> => err(problem("internal", `checking failed: ${message}`, { file: f.path })));
}
