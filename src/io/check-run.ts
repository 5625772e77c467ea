/**
 * The file side of `twinscore check`: find result files, read the BFCL data they need,
 * run the pure checker (`simulator/run-check.ts`) in one evaluator process (like one
 * `bfcl evaluate` run), write BFCL-format score files, and compare with stored ones.
 *
 * Layout: every `BFCL_v{3,4}_multi_turn_<category>_result.json` below `--results`.
 * The model name (BFCL's `model_name`, used in instance names and score lines) is the
 * folder holding the file, or the folder above a `multi_turn/` group folder. Score files
 * go to `<out>/<model>/<group>/…_score.json` as BFCL writes them; stored ones are looked
 * up the same way under `--scores` (a BFCL score root).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { answersFile, docFile, multiTurnDocFiles, questionsFile, type MultiTurnCategory } from "../bfcl/data.js";
import { err, ok, problem, type Problem, type Result } from "../messages/index.js";
import { checkModelFiles, prepareCategory, type CategoryInputs, type FileCheck, type ModelFileInput } from "../simulator/run-check.js";
import { newEvaluatorProcess } from "../simulator/runtime.js";
import { decodePromptingStep } from "../simulator/prompting.js";
import { compareVerdicts, parseScoreFile, type Agreement } from "../simulator/scorefile.js";
import type { LongContextData } from "../simulator/types.js";
import { findLongContextModule, readLongContext } from "./long-context.js";
import { writeFileAtomic } from "./manifest.js";

const RESULT_FILE = /^BFCL_(v3|v4)_multi_turn_(base|miss_func|miss_param|long_context)_result\.json$/;
const GROUP_DIRS = new Set(["multi_turn", "non_live", "live", "agentic", "format_sensitivity"]);

/** One result file found under `--results`. */
export interface FoundResultFile {
  readonly path: string;
  /** Path relative to the results folder. */
  readonly relative: string;
  readonly model: string;
  /** The model's folder (one evaluator process per model folder, like one BFCL evaluation). */
  readonly modelDir: string;
  /** `<model>/<group>/BFCL_vN_<category>_score.json`: where BFCL would write the score file. */
  readonly scoreRelative: string;
  readonly version: "v3" | "v4";
  readonly category: MultiTurnCategory;
}

/**
 * Find every multi-turn result file below `dir`, sorted by path. The model is the
 * folder holding the file, or the one above when that folder is a BFCL group folder
 * (`multi_turn`, …) — so a tree of several runs (`run/result/<model>/multi_turn/…`)
 * names each model correctly.
 */
export function findResultFiles(dir: string): FoundResultFile[] {
  const out: FoundResultFile[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else {
        const m = RESULT_FILE.exec(name);
        if (!m) continue;
        const parent = dirname(p);
        const modelDir = GROUP_DIRS.has(basename(parent)) ? dirname(parent) : parent;
        out.push({
          path: p,
          relative: relative(dir, p),
          model: basename(modelDir),
          modelDir,
          scoreRelative: join(basename(modelDir), relative(modelDir, p).replace(/_result\.json$/, "_score.json")),
          version: m[1] as "v3" | "v4",
          category: m[2] as MultiTurnCategory,
        });
      }
    }
  };
  walk(dir);
  return out;
}

/** What `check` asks for. */
export interface CheckRunRequest {
  readonly resultsDir: string;
  readonly bfclDataDir: string;
  readonly scoresDir?: string;
  readonly outDir?: string;
  /** A bfcl_eval folder (or checkout) holding long_context.py; else found beside the data or via python3. */
  readonly bfclEvalDir?: string;
  /** How steps are decoded: BFCL's FC decoder (default) or its prompting decoder. */
  readonly decoder?: "fc" | "prompting";
  readonly env: Record<string, string | undefined>;
  readonly cwd: string;
}

/** The outcome for one result file. */
export interface CheckedFile {
  readonly file: string;
  readonly model: string;
  readonly category: MultiTurnCategory;
  readonly entries: number;
  readonly correct: number;
  readonly accuracy: number;
  /** Where the score file was written, if `--out` was given. */
  readonly written: string | null;
  /** Agreement with the stored score file, if `--scores` was given and it exists. */
  readonly agreement: Agreement | null;
  /** Stored score file path compared against. */
  readonly storedScoreFile: string | null;
  readonly check: FileCheck;
}

/** The whole run. */
export interface CheckRunReport {
  readonly files: CheckedFile[];
  /** Problems that skipped a file (missing data, missing long_context module …). */
  readonly problems: Problem[];
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

/** Run the checker over every result file below `resultsDir`. */
export function runCheck(req: CheckRunRequest): Result<CheckRunReport> {
  const resultsDir = resolve(req.cwd, req.resultsDir);
  if (!existsSync(resultsDir) || !statSync(resultsDir).isDirectory()) {
    return err(problem("results-missing", "results directory not found", { file: resultsDir }));
  }
  const found = findResultFiles(resultsDir);
  if (found.length === 0) return err(problem("results-missing", "no BFCL_v{3,4}_multi_turn_*_result.json files below the results directory", { file: resultsDir }));
  const dataDir = resolve(req.cwd, req.bfclDataDir);
  const problems: Problem[] = [];
  const inputs = new Map<string, Result<CategoryInputs>>();
  let filler: LongContextData | undefined;
  if (found.some((f) => f.category === "long_context")) {
    const module = findLongContextModule({ flag: req.bfclEvalDir, env: req.env, cwd: req.cwd, dataDir });
    if (module === null) {
      problems.push(problem("long-context-missing", "long_context result files need BFCL's long_context.py: pass --bfcl-eval DIR (the bfcl_eval folder) or set BFCL_EVAL_DIR", { severity: "error" }));
    } else {
      const read = readLongContext(module);
      if (read.ok) filler = read.value;
      else problems.push(...read.problems);
    }
  }
  // one evaluator process per model folder (files are sorted by path, so a folder's files are adjacent)
  const groups: { modelDir: string; model: string; files: { found: FoundResultFile; input: ModelFileInput }[] }[] = [];
  for (const f of found) {
    if (f.category === "long_context" && filler === undefined) continue;
    const key = `${f.version}/${f.category}`;
    if (!inputs.has(key)) inputs.set(key, loadCategory(dataDir, f.version, f.category));
    const cat = inputs.get(key) as Result<CategoryInputs>;
    if (!cat.ok) {
      problems.push(...cat.problems);
      continue;
    }
    let group = groups[groups.length - 1];
    if (!group || group.modelDir !== f.modelDir) {
      group = { modelDir: f.modelDir, model: f.model, files: [] };
      groups.push(group);
    }
    group.files.push({ found: f, input: { bytes: readFileSync(f.path), file: f.path, testCategory: `multi_turn_${f.category}`, inputs: cat.value } });
  }
  const checkedFiles: { f: FoundResultFile; checked: Result<FileCheck> }[] = [];
  for (const g of groups) {
    const results = checkModelFiles(
      g.files.map((x) => x.input),
      {
        modelName: g.model,
        newProcess: (exact) => newEvaluatorProcess(filler, exact),
        decode: req.decoder === "prompting" ? decodePromptingStep : undefined,
        renderScore: req.outDir !== undefined || req.scoresDir !== undefined,
      },
    );
    results.forEach((checked, i) => checkedFiles.push({ f: g.files[i].found, checked }));
  }
  const files: CheckedFile[] = [];
  for (const { f, checked } of checkedFiles) {
    if (!checked.ok) {
      problems.push(...checked.problems);
      continue;
    }
    const scoreRelWithModel = f.scoreRelative;
    let written: string | null = null;
    if (req.outDir !== undefined && checked.value.scoreText !== null) {
      const target = join(resolve(req.cwd, req.outDir), scoreRelWithModel);
      mkdirSync(dirname(target), { recursive: true });
      const w = writeFileAtomic(target, checked.value.scoreText);
      if (!w.ok) problems.push(...w.problems);
      else written = target;
    }
    let agreement: Agreement | null = null;
    let storedPath: string | null = null;
    if (req.scoresDir !== undefined) {
      const candidate = join(resolve(req.cwd, req.scoresDir), scoreRelWithModel);
      const storedText = readText(candidate);
      if (storedText === null) problems.push(problem("score-missing", "no stored score file for this result file", { file: candidate, severity: "warning" }));
      else {
        const stored = parseScoreFile(storedText, candidate);
        if (!stored.ok) problems.push(...stored.problems);
        else {
          agreement = compareVerdicts(checked.value.verdicts, stored.value);
          storedPath = candidate;
        }
      }
    }
    files.push({
      file: f.path,
      model: f.model,
      category: f.category,
      entries: checked.value.total,
      correct: checked.value.correct,
      accuracy: checked.value.total === 0 ? 0 : checked.value.correct / checked.value.total,
      written,
      agreement,
      storedScoreFile: storedPath,
      check: checked.value,
    });
  }
  return ok({ files, problems });
}
