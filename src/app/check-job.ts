/**
 * One job of `twinscore check`: a model folder's result files, checked in one evaluator process with the
 * decoder the pipeline's rule chooses. The same function runs on the main thread and in a worker, so the output
 * does not depend on the thread count, and it returns only plain data. More in this folder's README.md.
 */
import type { MultiTurnCategory } from "../bfcl/data.js";
import { counted, pushAll, err, ok, problem, type Problem, type Result } from "../messages/index.js";
import {
  decodeFailureMessage,
  decoderByName,
  sampleSteps,
  summarizeChoice,
  type DecodeHealth,
  type DecoderChoiceSummary,
  type DecoderName,
} from "../bfcl/decode/index.js";
import type { BfclVersion } from "../bfcl/categories.js";
import { chooseFolderDecoder, type FolderToDecode } from "./pipeline.js";
import type { EmptyTurnReading } from "../simulator/irrelevance.js";
import {
  checkModelFiles,
  checkResultFile,
  type CategoryInputs,
  type EntryReadings,
  type FileCheck,
  type ModelFileInput,
} from "../simulator/run-check.js";
import { explainDifferences, type CheckVariant } from "../simulator/difference-causes.js";
import type { OurVerdict } from "../simulator/scorefile.js";
import { newEvaluatorProcess } from "../simulator/runtime.js";
import { parseScoreFile } from "../bfcl/scores.js";
import { firstInvalidUtf8, invalidUtf8Message } from "../bfcl/utf8.js";
import { compareVerdicts, type Agreement } from "../simulator/agreement.js";
import type { LongContextData } from "../simulator/types.js";
import { readCategoryInputs, readLongContext } from "./bfcl-inputs.js";
import { bytesAreUtf8, ReusedBuffers } from "../io/file-buffers.js";
import { readFailure } from "../io/results-read.js";
import { makeFolder, writeFileAtomic } from "../io/manifest.js";
import { readScoreFileText } from "../io/scores.js";
import { joinPath, parentOf } from "../io/paths.js";

/**
 * A model folder's decoder left for the job to choose (`chooseFolderDecoder`): detection
 * samples the bytes the job reads anyway, so a result file is not opened once more for its head.
 */
export interface DecoderToChoose {
  readonly folder: FolderToDecode;
  /** `--decoder`, or null. */
  readonly override: DecoderName | null;
  /** The BFCL version the folder is checked as (its registry is that version's). */
  readonly version: BfclVersion;
}

/** A model folder's result files, in path order, and the decoder its steps are read with (chosen already, or by the job). */
export interface CheckJob {
  readonly model: string;
  readonly decoder: DecoderChoiceSummary | DecoderToChoose;
  readonly files: readonly {
    readonly path: string;
    readonly version: "v3" | "v4";
    readonly category: MultiTurnCategory;
    /** Where its score file goes below `outDir`. */
    readonly scoreRelative: string;
    /** The stored score file to compare its verdicts with (found under `--scores`), or null. */
    readonly storedScore: string | null;
    /** The file's bytes when they were read already (else the job reads them). */
    readonly bytes?: Uint8Array;
  }[];
}

/** What every job of a run shares (plain data, so it can be a worker's start data). */
export interface CheckJobSettings {
  readonly dataDir: string;
  /** long_context.py to read the filler from (only when a job has long_context files). */
  readonly longContextModule: string | null;
  /** Also score the turns whose reference is empty (`simulator/irrelevance.ts`); null: BFCL's checker as is. */
  readonly emptyTurns?: EmptyTurnReading | null;
  /** Absolute folder to write BFCL score files into, or null. */
  readonly outDir: string | null;
  /** Whether stored score files were given to compare verdicts with. */
  readonly compareStored: boolean;
}

/**
 * The outcome of one file, as plain data: its score file is written (and compared) by the
 * job itself, so neither score texts nor verdicts are held past their file.
 */
export interface CheckedFileData {
  readonly total: number;
  readonly correct: number;
  /** Entries BFCL's checker alone passes. */
  readonly officialCorrect: number;
  /** With the empty-reference turns scored: each entry under BFCL's checker, the strict and the world-changing reading. */
  readonly readings: readonly EntryReadings[] | null;
  /** Where the score file was written, if an out folder was given. */
  readonly written: string | null;
  /** Agreement with the stored score file, if a score root was given and it has one. */
  readonly agreement: Agreement | null;
  readonly storedScoreFile: string | null;
  /** Warnings and write failures that did not stop the file. */
  readonly problems: Problem[];
  /** The model folder's decoder and why it was chosen. */
  readonly decoder: DecoderChoiceSummary;
  /** How the file's steps decoded with it. */
  readonly decodeHealth: DecodeHealth;
}

/** Per-thread caches: each category's BFCL data and the filler are read once per thread, and the memory files are read into and score files rendered into is reused from job to job. */
export class CheckJobCache {
  readonly categories = new Map<string, Result<CategoryInputs>>();
  filler: Result<LongContextData> | null = null;
  readonly buffers = new ReusedBuffers();
}

/**
 * The problem of a result file whose bytes are not all UTF-8, naming the first such line:
 * BFCL's evaluation opens the file with Python's strict codec and stops on it, so the file
 * is not checked (read leniently, the replacement characters shifted verdicts). Null when
 * the file is UTF-8.
 */
function invalidUtf8Problem(bytes: Uint8Array, file: string): Problem | null {
  if (bytesAreUtf8(bytes)) return null;
  const at = firstInvalidUtf8(bytes, 0, bytes.length);
  let line = 1;
  for (let i = bytes.indexOf(0x0a); i >= 0 && i < at; i = bytes.indexOf(0x0a, i + 1)) line++;
  const lineStart = bytes.lastIndexOf(0x0a, at) + 1;
  return problem("utf8-invalid", `${invalidUtf8Message(bytes, lineStart, at)}; the file is not checked`, { file, line });
}

/**
 * Check one model folder: per file, its outcome or the problems that stopped it (the
 * BFCL data of its category missing or malformed, a malformed result line …), in file order.
 */
export function runCheckJob(job: CheckJob, settings: CheckJobSettings, cache: CheckJobCache): Result<CheckedFileData>[] {
  const { out, inputs, read, filler } = readJobFiles(job, settings, cache);
  const summary = "name" in job.decoder ? job.decoder : chosenDecoder(job.decoder, read, cache.buffers);
  const decoder = summary === null ? undefined : decoderByName(summary.name);
  if (summary === null || decoder === undefined) {
    const name = "name" in job.decoder ? job.decoder.name : job.decoder.override;
    return job.files.map((f) => err(problem("decoder-unknown", `unknown decoder ${name}`, { file: f.path })));
  }
  // one evaluator process per BFCL release: a folder holding v3 and v4 files is two evaluations
  for (const version of ["v3", "v4"] as const) {
    const mine = inputs.filter((f) => job.files[f.index].version === version);
    if (mine.length === 0) continue;
    const results = checkModelFiles(mine, {
      // BFCL's checker knows a model by its result folder's name, `/` written as `_`
      modelName: job.model.replaceAll("/", "_"),
      newProcess: (exact) => newEvaluatorProcess(filler, exact, version),
      decode: decoder.decode,
      decodePlain: decoder.plain?.decode,
      decoder,
      renderScore: settings.outDir !== null || settings.compareStored,
      emptyTurns: settings.emptyTurns ?? undefined,
      bfclVersion: version,
    });
    results.forEach((r, i) => {
      const input = mine[i];
      const recheck = recheckerOf(input, job.model, filler, version, decoder, settings);
      out[input.index] = r.ok ? ok(finishFile(settings, job.files[input.index], r.value, summary, recheck)) : r;
    });
  }
  return out as Result<CheckedFileData>[];
}

/** An input of the evaluator and the index of its file in the job. */
type IndexedInput = ModelFileInput & { readonly index: number };

/** A job's files as read: the outcome of each file not checked (null for the others), the evaluator's inputs, the bytes by path, the long_context filler. */
interface JobFiles {
  readonly out: (Result<CheckedFileData> | null)[];
  readonly inputs: IndexedInput[];
  readonly read: Map<string, Uint8Array>;
  readonly filler: LongContextData | undefined;
}

/**
 * Read a job's files and their category's data: the evaluator's inputs, and the outcome
 * of each file that cannot be checked (its data missing, its bytes unreadable or not UTF-8).
 */
function readJobFiles(job: CheckJob, settings: CheckJobSettings, cache: CheckJobCache): JobFiles {
  const out: (Result<CheckedFileData> | null)[] = job.files.map(() => null);
  const inputs: IndexedInput[] = [];
  // every file's bytes as read, for the decoder's detection sample (a file not checked, for bytes not UTF-8, kept in a copy: its buffer is reused)
  const read = new Map<string, Uint8Array>();
  let filler: LongContextData | undefined;
  job.files.forEach((f, index) => {
    const key = `${f.version}/${f.category}`;
    if (!cache.categories.has(key)) cache.categories.set(key, readCategoryInputs(settings.dataDir, f.version, f.category));
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
    const slot = inputs.length;
    let bytes: Uint8Array;
    try {
      bytes = f.bytes ?? cache.buffers.readFile(f.path, slot);
    } catch (e) {
      out[index] = err(problem("file-unreadable", `cannot read result file (${readFailure(e)})`, { file: f.path }));
      return;
    }
    const notUtf8 = invalidUtf8Problem(bytes, f.path);
    if (notUtf8 !== null) {
      read.set(f.path, bytes.slice());
      out[index] = err(notUtf8);
      return;
    }
    read.set(f.path, bytes);
    inputs.push({
      index,
      bytes,
      file: f.path,
      testCategory: `multi_turn_${f.category}`,
      inputs: cat.value,
      scoreScratch: (bytes) => cache.buffers.buffer(`out${slot}`, bytes),
    });
  });
  return { out, inputs, read, filler };
}

/** The same file alone in a fresh process of another kind, to test what explains a difference from BFCL's stored verdicts. */
function recheckerOf(
  input: IndexedInput,
  model: string,
  filler: LongContextData | undefined,
  version: BfclVersion,
  decoder: NonNullable<ReturnType<typeof decoderByName>>,
  settings: CheckJobSettings,
): (variant: CheckVariant) => readonly OurVerdict[] | null {
  return (variant) => {
    const again = checkResultFile(input.bytes, input.file, {
      modelName: model,
      testCategory: input.testCategory,
      inputs: input.inputs,
      process: newEvaluatorProcess(filler, true, version, variant.seeds, variant.classSource),
      decode: decoder.decode,
      decodePlain: decoder.plain?.decode,
      decoder,
      renderScore: true,
      emptyTurns: settings.emptyTurns ?? undefined,
      bfclVersion: version,
    });
    return again.ok ? again.value.verdicts : null;
  };
}

/**
 * The decoder the pipeline would choose for the folder, its detection sampling the bytes
 * the job read (`read`, by path). A detection file the job did not read (its category's
 * data is missing) is read here, when the sample reaches it; one that cannot be read is
 * passed over.
 */
function chosenDecoder(
  toChoose: DecoderToChoose,
  read: ReadonlyMap<string, Uint8Array>,
  buffers: ReusedBuffers,
): DecoderChoiceSummary | null {
  function* bytesOf(files: readonly string[]): Generator<Uint8Array> {
    for (const f of files) {
      const bytes = read.get(f) ?? readOrNull(() => buffers.readFile(f, -1));
      if (bytes !== null) yield bytes;
    }
  }
  const choice = chooseFolderDecoder(toChoose.folder, toChoose.override ?? undefined, toChoose.version, (files) =>
    sampleSteps(bytesOf(files)),
  );
  return choice === null ? null : summarizeChoice(choice);
}

/** The bytes `read` gives, or null when it throws (the file's own problem is reported where it is checked). */
function readOrNull(read: () => Uint8Array): Uint8Array | null {
  try {
    return read();
  } catch {
    return null;
  }
}

/** The lines of a checked file: those checked and those left out. */
function linesOf(checked: FileCheck): number {
  return checked.total + checked.stoppedAtAnchor.length + checked.playedFromReference.length;
}

/** Write one file's score file and compare its verdicts with the stored score file. */
function finishFile(
  settings: CheckJobSettings,
  file: CheckJob["files"][number],
  checked: FileCheck,
  decoder: DecoderChoiceSummary,
  recheck: (variant: CheckVariant) => readonly OurVerdict[] | null,
): CheckedFileData {
  const problems: Problem[] = [...checked.warnings];
  // steps of lines in another shape than BFCL's fail for that reason, which their own line says: no decoder would read them
  const reshaped = checked.warnings.some((w) => w.code === "not-bfcl-lines");
  const tooMany = reshaped ? null : decodeFailureMessage(checked.decodeHealth, decoder);
  // with the decoder of the model's handler in BFCL's registry the steps failed in BFCL too: said, not a wrong decoder
  if (tooMany !== null)
    problems.push(
      problem(decoder.source === "registry" ? "undecoded-steps" : "decode-failures", tooMany, { file: file.path, severity: "warning" }),
    );
  if (checked.stoppedAtAnchor.length > 0) {
    problems.push(
      problem(
        "stopped-at-anchor",
        `${counted(checked.stoppedAtAnchor.length, "line")} of ${linesOf(checked)} in this file stopped after their anchor turn (twinscore run --until-anchor), left out of this score: they hold the decision only, not a whole rollout`,
        { file: file.path, severity: "warning" },
      ),
    );
  }
  if (checked.playedFromReference.length > 0) {
    problems.push(
      problem(
        "played-from-reference",
        `${counted(checked.playedFromReference.length, "line")} of ${linesOf(checked)} in this file had their turns before the anchor played from the reference (twinscore run --history reference), left out of this score: BFCL's checker would read the reference's calls there as the model's`,
        { file: file.path, severity: "warning" },
      ),
    );
  }
  const written = writtenScoreFile(settings, file, checked, problems);
  const { agreement, storedScoreFile } = settings.compareStored
    ? storedAgreement(file, checked, recheck, problems)
    : { agreement: null, storedScoreFile: null };
  return {
    total: checked.total,
    correct: checked.correct,
    officialCorrect: checked.officialCorrect,
    readings: checked.readings,
    written,
    agreement,
    storedScoreFile,
    problems,
    decoder,
    decodeHealth: checked.decodeHealth,
  };
}

/** Write the file's score file under --out; its path, or null when none is asked for or the write failed (reported). */
function writtenScoreFile(
  settings: CheckJobSettings,
  file: CheckJob["files"][number],
  checked: FileCheck,
  problems: Problem[],
): string | null {
  if (settings.outDir === null || checked.scoreFile === null) return null;
  const target = joinPath(settings.outDir, file.scoreRelative);
  const w = makeFolder(parentOf(target)) ?? writeFileAtomic(target, checked.scoreFile);
  if (!w.ok) {
    pushAll(problems, w.problems);
    return null;
  }
  return target;
}

/** The file's verdicts compared with its stored score file, differences explained; nulls when that file is missing or unreadable (reported). */
function storedAgreement(
  file: CheckJob["files"][number],
  checked: FileCheck,
  recheck: (variant: CheckVariant) => readonly OurVerdict[] | null,
  problems: Problem[],
): { agreement: Agreement | null; storedScoreFile: string | null } {
  const candidate = file.storedScore;
  const storedText = candidate === null ? null : readScoreFileText(candidate);
  if (candidate === null || storedText === null) {
    problems.push(
      problem("score-missing", "no stored score file for this result file under --scores", { file: file.path, severity: "warning" }),
    );
    return { agreement: null, storedScoreFile: null };
  }
  if ("reason" in storedText) {
    problems.push(problem("file-unreadable", `cannot read score file (${storedText.reason})`, { file: candidate }));
    return { agreement: null, storedScoreFile: null };
  }
  const stored = parseScoreFile(storedText.text, candidate);
  pushAll(problems, stored.problems);
  if (stored.content === null) return { agreement: null, storedScoreFile: null };
  let agreement = compareVerdicts(checked.verdicts, stored.content);
  if (agreement.disagreeingIds.length > 0) {
    agreement = {
      ...agreement,
      explained: explainDifferences(checked.verdicts, stored.content, agreement.disagreeingIds, file.version, recheck),
    };
  }
  return { agreement, storedScoreFile: candidate };
}

/** Problems of a job that failed as a whole (a worker crash), one per file. */
export function failedJob(job: CheckJob, message: string): Result<CheckedFileData>[] {
  return job.files.map((f): Result<CheckedFileData> => err(problem("internal", `checking failed: ${message}`, { file: f.path })));
}
