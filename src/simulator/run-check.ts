/**
 * Checking a whole BFCL result file, as `bfcl evaluate` does for one category: result
 * lines sorted by id, each entry checked against its question and reference, the score
 * file rendered. Pure: the caller passes file texts (questions, references, docs,
 * results) and an evaluator process; the CLI does the reading and writing.
 */
import { PyDict } from "../python/containers.js";
import { PyException } from "../python/exception.js";
import { jsonLoadsFast, jsonLoadsOrThrow, jsonNestsDeeperThan } from "../python/json.js";
import { JSON_DECODE_MAX_DEPTH } from "../python/limits.js";
import type { PyValue } from "../python/value.js";
import { err, errAll, LineProblems, ok, problem, pushAll, type Problem, type Result } from "../messages/index.js";
import { sortIndexOfId } from "../bfcl/categories.js";
import { lineHistory, notBfclLinesMessage, repeatedKeyMessage, resultShapeFound, scanLineHead, stoppedAfterTurn } from "../bfcl/results.js";
import type { BfclVersion } from "../bfcl/data.js";
import { evaluatorRevision, type EvaluatorRevision } from "../bfcl/evaluator-versions.js";
import {
  bfclDefaultDecoder,
  countTurn,
  newDecodeHealth,
  type DecodeHealth,
  type DecodeOutcome,
  type Decoder,
} from "../bfcl/decode/index.js";
import { extractTurn } from "../extract/extract.js";
import {
  checkEntry,
  EvaluatorStops,
  inferenceErrorVerdict,
  type CheckPrompt,
  type EntryVerdict,
  type FailedVerdict,
  type PlainStepDecoder,
  type StepDecoder,
} from "./checker.js";
import { InstanceNamedInCall, type EvalNote, type EvaluatorProcess } from "./executor.js";
import { toolsOfClasses, withEmptyTurnsScored, type EmptyTurnReading } from "./irrelevance.js";
import {
  dumpScoreValue,
  dumpScoreValueBounded,
  failedEntryChunks,
  RenderedJson,
  ScoreFileBuilder,
  scoreLineParts,
  VerbatimJson,
  type OurVerdict,
} from "./scorefile.js";

/** Prompts rendered once per question entry (the same entry fails for many models). */
const renderedPrompts = new WeakMap<PreparedQuestion, RenderedJson>();

/** Parse a JSON Lines text with Python's `json.loads` (ints and floats kept apart). */
export function parsePyJsonLines(text: string, file: string): Result<{ value: PyValue; line: number }[]> {
  const out: { value: PyValue; line: number }[] = [];
  const problems: Problem[] = [];
  text.split("\n").forEach((l, i) => {
    if (l.trim() === "") return;
    try {
      out.push({ value: jsonLoadsFast(l), line: i + 1 });
    } catch (e) {
      if (!(e instanceof PyException)) throw e;
      problems.push(problem("json-malformed", e.pyMessage, { file, line: i + 1 }));
    }
  });
  return problems.length > 0 ? errAll(problems) : ok(out);
}

/** A question entry as the checker and the score file need it. */
export interface PreparedQuestion {
  readonly prompt: CheckPrompt;
  /** The evaluation-time entry without `function` (held-out names replaced by their docs), for the score file. */
  readonly scorePrompt: PyDict;
}

/** The reference and question inputs of one category, by id. */
export interface CategoryInputs {
  readonly questions: ReadonlyMap<string, PreparedQuestion>;
  readonly groundTruth: ReadonlyMap<string, readonly (readonly string[])[]>;
}

/**
 * Prepare a category from its questions and reference texts and the doc files' texts
 * (class name → text). Held-out function names in `missed_function` are replaced by the
 * first doc of that name in the concatenated tool list, as BFCL's loader does; a class's
 * doc file is parsed only when that needs it (so only a miss_func category reports one
 * that is malformed).
 */
export function prepareCategory(
  questionsText: string,
  questionsFile: string,
  answersText: string,
  answersFile: string,
  docsByClass: ReadonlyMap<string, string>,
  /** The release whose runner writes the score lines' `prompt` (v4: held-out names replaced by their docs). */
  revision: EvaluatorRevision = evaluatorRevision("v4"),
): Result<CategoryInputs> {
  const q = parsePyJsonLines(questionsText, questionsFile);
  if (!q.ok) return q;
  const a = parsePyJsonLines(answersText, answersFile);
  if (!a.ok) return a;
  const problems: Problem[] = [];
  const questions = readQuestions(q.value, questionsFile, lazyDocs(docsByClass), revision, problems);
  if (!questions.ok) return questions;
  const groundTruth = readAnswers(a.value, answersFile, problems);
  return problems.length > 0 ? errAll(problems) : ok({ questions: questions.value, groundTruth });
}

type JsonLine = { value: PyValue; line: number };

/** Each class's docs, parsed the first time a held-out function needs them (only miss_func has any). */
interface LazyDocs {
  has(cls: string): boolean;
  of(cls: string): Result<PyDict[]>;
}

function lazyDocs(docsByClass: ReadonlyMap<string, string>): LazyDocs {
  const docs = new Map<string, Result<PyDict[]> | null>([...docsByClass.keys()].map((cls) => [cls, null]));
  return {
    has: (cls) => docs.has(cls),
    of: (cls) => {
      let d = docs.get(cls);
      if (d === null || d === undefined) {
        const parsed = parsePyJsonLines(docsByClass.get(cls) ?? "", cls);
        d = parsed.ok ? ok(parsed.value.map((x) => x.value as PyDict)) : parsed;
        docs.set(cls, d);
      }
      return d;
    },
  };
}

/** The questions by id; a malformed one is a problem, a malformed doc file ends the reading. */
function readQuestions(
  lines: readonly JsonLine[],
  questionsFile: string,
  docs: LazyDocs,
  revision: EvaluatorRevision,
  problems: Problem[],
): Result<Map<string, PreparedQuestion>> {
  const questions = new Map<string, PreparedQuestion>();
  for (const { value, line } of lines) {
    if (!(value instanceof PyDict) || typeof value.get("id") !== "string") {
      problems.push(problem("question-malformed", "question entry without an id", { file: questionsFile, line }));
      continue;
    }
    const id = value.get("id") as string;
    const involved = value.get("involved_classes");
    const config = value.get("initial_config");
    if (!Array.isArray(involved) || !involved.every((c) => typeof c === "string" && docs.has(c)) || !(config instanceof PyDict)) {
      problems.push(
        problem("question-malformed", `${id}: involved_classes must name known classes and initial_config must be an object`, {
          file: questionsFile,
          line,
        }),
      );
      continue;
    }
    const scorePrompt = new PyDict(value.entries());
    const missed = value.get("missed_function");
    if (missed instanceof PyDict && revision.promptMissedFunctionDocs) {
      const replaced = missedWithDocs(missed, involved as string[], docs);
      if (!replaced.ok) return replaced;
      scorePrompt.set("missed_function", replaced.value);
    }
    questions.set(id, { prompt: { id, initialConfig: config, involvedClasses: involved as string[] }, scorePrompt });
  }
  return ok(questions);
}

/** `missed_function` with each held-out name replaced by the first unused doc of that name in the classes' tool list. */
function missedWithDocs(missed: PyDict, involved: readonly string[], docs: LazyDocs): Result<PyDict> {
  const pool: PyDict[] = [];
  for (const c of involved) {
    const d = docs.of(c);
    if (!d.ok) return d;
    pushAll(pool, d.value);
  }
  const replaced = new PyDict();
  for (const [turn, names] of missed.entries()) {
    const list = Array.isArray(names) ? names : [];
    replaced.set(
      turn,
      list.map((n) => {
        const idx = pool.findIndex((d) => d.get("name") === n);
        if (idx < 0) return n;
        return pool.splice(idx, 1)[0];
      }),
    );
  }
  return ok(replaced);
}

/** The reference calls by id; a malformed entry is a problem. */
function readAnswers(lines: readonly JsonLine[], answersFile: string, problems: Problem[]): Map<string, string[][]> {
  const groundTruth = new Map<string, string[][]>();
  for (const { value, line } of lines) {
    const id = value instanceof PyDict ? value.get("id") : undefined;
    const gt = value instanceof PyDict ? value.get("ground_truth") : undefined;
    if (typeof id !== "string" || !Array.isArray(gt) || !gt.every((t) => Array.isArray(t) && t.every((c) => typeof c === "string"))) {
      problems.push(
        problem("answer-malformed", "reference entry needs an id and ground_truth: list of lists of strings", { file: answersFile, line }),
      );
      continue;
    }
    groundTruth.set(id, gt as string[][]);
  }
  return groundTruth;
}

/** Problem code of a file that must be checked again in an exact process (`checkModelFiles` does it). */
const INSTANCE_NAMED = "instance-named-in-call";

/** One result file of a model folder, for `checkModelFiles`. */
export interface ModelFileInput {
  readonly bytes: Uint8Array;
  readonly file: string;
  /** `multi_turn_<category>`. */
  readonly testCategory: string;
  readonly inputs: CategoryInputs;
  /** Reused memory for this file's score file (see `ScoreFileBuilder`). */
  readonly scoreScratch?: (bytes: number) => Uint8Array;
}

/**
 * Check a model folder's result files in order in one evaluator process, as one BFCL
 * evaluation does. The process is a fast one (finished entries released); if any call
 * names an instance by its global name, every file is checked again in an exact process
 * (see `InstanceNamedInCall`), so the verdicts are BFCL's either way.
 */
export function checkModelFiles(
  files: readonly ModelFileInput[],
  opts: {
    readonly modelName: string;
    /** A fresh evaluator process; `exact` keeps every instance for the run. */
    readonly newProcess: (exact: boolean) => EvaluatorProcess;
    /** BFCL's `decode_execute` of the model's handler, on Python values; `decoder`'s by default. */
    readonly decode?: StepDecoder;
    /** The same decoder on `JSON.parse` values, if it has such a path (see `PlainStepPath`); `decoder`'s when `decode` is not given. */
    readonly decodePlain?: PlainStepDecoder;
    /** The model's decoder, for what extracts calls: the decode health (as score reads steps) and the world-changing empty-turn reading; BFCL's default for record steps (FC) when absent. */
    readonly decoder?: Decoder;
    readonly renderScore: boolean;
    /** Also score the turns whose reference is empty (see `irrelevance.ts`); absent: BFCL's checker as is. */
    readonly emptyTurns?: EmptyTurnReading;
    /** The BFCL version of the data (fixes an item's tool list for the world-changing reading); default v4. */
    readonly bfclVersion?: BfclVersion;
  },
): Result<FileCheck>[] {
  const run = (exact: boolean): Result<FileCheck>[] | null => {
    const process = opts.newProcess(exact);
    const out: Result<FileCheck>[] = [];
    for (const f of files) {
      const r = checkResultFile(f.bytes, f.file, {
        modelName: opts.modelName,
        testCategory: f.testCategory,
        inputs: f.inputs,
        process,
        decode: opts.decode,
        decodePlain: opts.decodePlain,
        decoder: opts.decoder,
        renderScore: opts.renderScore,
        scoreScratch: f.scoreScratch,
        emptyTurns: opts.emptyTurns,
        bfclVersion: opts.bfclVersion,
      });
      if (!r.ok && !exact && r.problems.some((p) => p.code === INSTANCE_NAMED)) return null;
      out.push(r);
    }
    return out;
  };
  return run(false) ?? (run(true) as Result<FileCheck>[]);
}

const utf8 = new TextDecoder("utf-8");

/** True when every step item maps names to argument strings — then `JSON.parse` lost nothing the decoder reads. */
export function stepsAreStringArgs(result: unknown): boolean {
  if (!Array.isArray(result)) return true;
  for (const turn of result) {
    if (!Array.isArray(turn)) return false;
    for (const step of turn) {
      if (!Array.isArray(step)) {
        if (typeof step === "string" || step === null) continue;
        return false;
      }
      for (const item of step) {
        if (item === null || typeof item !== "object" || Array.isArray(item)) continue;
        for (const v of Object.values(item)) if (typeof v !== "string") return false;
      }
    }
  }
  return true;
}

/**
 * One entry under the three readings of its empty-reference turns: BFCL's checker as it
 * runs (`bfcl`), with BFCL's irrelevance checker added (`strict`), and with only a
 * world-changing attempt there failing it (`worldChanging`). True = passes.
 */
export interface EntryReadings {
  readonly id: string;
  readonly bfcl: boolean;
  readonly strict: boolean;
  readonly worldChanging: boolean;
}

/** The outcome of checking one result file. */
export interface FileCheck {
  readonly correct: number;
  /** Entries BFCL's checker alone passes (equal to `correct` unless the empty-reference turns were scored). */
  readonly officialCorrect: number;
  /**
   * With the empty-reference turns scored: every entry under all three readings, in the
   * order checked (whichever reading the written verdicts follow); null otherwise.
   */
  readonly readings: readonly EntryReadings[] | null;
  readonly total: number;
  /** The score file BFCL would write, as UTF-8 bytes (only when asked for). */
  readonly scoreFile: Uint8Array | null;
  /** Comparable verdicts (with serialised error objects when the score text was rendered). */
  readonly verdicts: OurVerdict[];
  /** How the file's steps decoded (tool-looking steps, failures), for the wrong-decoder guard. */
  readonly decodeHealth: DecodeHealth;
  /** Findings that did not stop the file: an entry with a step nested too deeply to decode, or with a call whose result may differ from BFCL's (it depends on BFCL's machine, or is not emulated); one warning each. */
  readonly warnings: Problem[];
  /** Ids of lines left out because `twinscore run --until-anchor` stopped them after the anchor turn. */
  readonly stoppedAtAnchor: string[];
  /** Ids of lines left out because `twinscore run --history reference` played their turns before the anchor from the reference (those turns hold the reference's calls, not the model's). */
  readonly playedFromReference: string[];
}

/** Python's exception text when `json.loads` refuses `text`, else null. */
function jsonLoadsError(text: string): string | null {
  try {
    jsonLoadsOrThrow(text);
    return null;
  } catch (e) {
    if (!(e instanceof PyException)) throw e;
    return `${e.pyType}: ${e.pyMessage}`;
  }
}

/** A decode failure that comes from nesting depth (CPython's recursion, parser-stack or bracket limits). */
function isNestingFailure(outcome: DecodeOutcome): outcome is { ok: false; error: string } {
  if (outcome.ok) return false;
  const e = outcome.error;
  return (
    e.startsWith("RecursionError: ") ||
    e.startsWith("MemoryError: Parser stack overflowed") ||
    e.startsWith("SyntaxError: too many nested parentheses")
  );
}

/** One warning for an entry's calls whose results may differ from BFCL's. */
function notesWarning(id: string, notes: readonly EvalNote[], file: string, line: number): Problem {
  const describe = (kind: EvalNote["kind"]) => [...new Set(notes.filter((n) => n.kind === kind).map((n) => n.detail))].join("; ");
  const parts: string[] = [];
  const machine = describe("machine");
  const other = describe("not-emulated");
  if (machine !== "") parts.push(`a call's result comes from the machine BFCL ran on (${machine})`);
  if (other !== "") parts.push(`twinscore does not emulate ${other}`);
  return problem(
    other !== "" ? "call-not-emulated" : "call-machine-dependent",
    `${id}: ${parts.join("; ")}; ${other !== "" ? "the verdict and the error object" : "the error object (not the verdict)"} may differ from BFCL's`,
    {
      file,
      line,
      severity: "warning",
    },
  );
}

/**
 * A failed entry's error object as its score line writes it. A value in it too deep for
 * Python's `str()` or `json.dumps` (a folder nested a thousand levels by the model's own
 * calls) stops BFCL's writer with RecursionError and leaves no score file; here that value
 * is written as the error's text and the entry is reported, so the other lines still are.
 */
/**
 * A score line kept back until the file ends. BFCL holds each error object as live
 * references and writes the score file after the last entry, so an error object that holds
 * a shared mutable default (`post_tweet`'s `mentions=[]`) shows what later entries added
 * to it: such a line is rendered at the end, and every line after it waits, to keep order.
 */
interface HeldLine {
  readonly verdictIndex: number;
  /** The rendered line (an error object that holds no shared object), or null. */
  readonly chunks: (string | Uint8Array)[] | null;
  /** Renders the error object as it is now, and its line. */
  readonly render: (() => { json: string; chunks: (json: string) => (string | Uint8Array)[] }) | null;
}

/** Write the held lines in order, their shared objects as they are at the file's end, and give their verdicts that text. */
function writeHeldLines(held: readonly HeldLine[], verdicts: OurVerdict[], scoreFile: ScoreFileBuilder | null): void {
  for (const h of held) {
    if (h.render === null) {
      scoreFile?.addLine(h.chunks as (string | Uint8Array)[]);
      continue;
    }
    const { json, chunks } = h.render();
    verdicts[h.verdictIndex] = { ...verdicts[h.verdictIndex], errorJson: json };
    scoreFile?.addLine(chunks(json));
  }
}

function renderError(error: PyDict, id: string, file: string, line: number, warnings: Problem[]): string {
  try {
    return dumpScoreValue(error);
  } catch (e) {
    if (!(e instanceof PyException) || e.pyType !== "RecursionError") throw e;
  }
  const bounded = dumpScoreValueBounded(error);
  warnings.push(
    problem(
      "error-too-deep",
      `${id}: its error object nests too deeply for Python to print (${bounded.tooDeep}); BFCL's evaluator stops on it and writes no score file; the entry is failed and that value written as the error's text`,
      { file, line, severity: "warning" },
    ),
  );
  return bounded.text;
}

/** What `checkResultFile` is given besides the file's bytes and name. */
export interface CheckFileOptions {
  readonly modelName: string;
  readonly testCategory: string;
  readonly inputs: CategoryInputs;
  readonly process: EvaluatorProcess;
  /** BFCL's `decode_execute` of the model's handler, on Python values; `decoder`'s by default. */
  readonly decode?: StepDecoder;
  /** The same decoder on `JSON.parse` values, if it has such a path (see `PlainStepPath`); `decoder`'s when `decode` is not given. */
  readonly decodePlain?: PlainStepDecoder;
  /** The model's decoder, for what extracts calls: the decode health (as score reads steps) and the world-changing empty-turn reading; BFCL's default for record steps (FC) when absent. */
  readonly decoder?: Decoder;
  readonly renderScore: boolean;
  /** Reused memory for the score file (see `ScoreFileBuilder`); `scoreFile` is then a view of it. */
  readonly scoreScratch?: (bytes: number) => Uint8Array;
  /** Also score the turns whose reference is empty (see `irrelevance.ts`); absent: BFCL's checker as is. */
  readonly emptyTurns?: EmptyTurnReading;
  /** The BFCL version of the data (fixes an item's tool list for the world-changing reading); default v4. */
  readonly bfclVersion?: BfclVersion;
}

/**
 * Check every line of a result file from its bytes, parsing each `result` only when its entry is checked; a
 * line that is not valid JSON stops the checking, with `file:line` problems. `testCategory` is
 * `multi_turn_<category>` (BFCL takes it from the file name); `modelName` is the result directory name. More in
 * this folder's README.md.
 */
export function checkResultFile(bytes: Uint8Array, file: string, opts: CheckFileOptions): Result<FileCheck> {
  const lines = readResultRows(bytes, file, opts);
  if (lines.problems.count > 0) return errAll(lines.problems.toArray());
  const check = newFileCheckState(bytes, file, opts, lines);
  for (const row of lines.rows) {
    const parsed = parseRowResult(check, row);
    if (parsed === null) continue;
    const verdict = verdictOfRow(check, row, parsed);
    if (verdict === null) continue;
    if ("stop" in verdict) return verdict.stop;
    const scored = afterEntryChecked(check, row, parsed.result, verdict.verdict);
    recordVerdicts(check, row, scored.verdict, scored.afterInferenceError);
  }
  return finishFileCheck(check, lines);
}

/** One line kept for checking: its id, number, and the byte ranges of the line and its `result`. */
interface ResultRow {
  readonly id: string;
  readonly line: number;
  readonly start: number;
  readonly end: number;
  readonly resultStart: number;
  readonly resultEnd: number;
}

/** A result file's lines as read up front: the rows to check, the lines set aside, and the problems found. */
interface ResultRows {
  readonly rows: ResultRow[];
  readonly problems: LineProblems;
  readonly stoppedAtAnchor: string[];
  readonly playedFromReference: string[];
  /** A line giving `id` or `result` twice is read by the last value, as BFCL's json.loads reads it, and reported. */
  readonly repeatedKeys: Problem[];
}

/** True when a line holds only spaces, tabs and carriage returns. */
function isBlankLine(bytes: Uint8Array, start: number, end: number): boolean {
  for (let k = start; k < end; k++) {
    const b = bytes[k];
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  }
  return true;
}

/**
 * Read each line's head (id, `result`'s byte range), report the lines BFCL could not
 * check, set aside those that are not whole rollouts of the model, and order the rest as
 * BFCL sorts entries. `result` is parsed only when its entry is checked: holding every
 * parsed result of a file until then made the garbage collector copy them again and again.
 */
function readResultRows(bytes: Uint8Array, file: string, opts: CheckFileOptions): ResultRows {
  const out: ResultRows = { rows: [], problems: new LineProblems(), stoppedAtAnchor: [], playedFromReference: [], repeatedKeys: [] };
  let lineNo = 0;
  for (let start = 0; start < bytes.length;) {
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    lineNo++;
    const lineStart = start;
    start = end + 1;
    if (!isBlankLine(bytes, lineStart, end)) readResultRow(bytes, file, opts, lineStart, end, lineNo, out);
  }
  out.rows.sort((a, b) => sortIndexOfId(a.id) - sortIndexOfId(b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return out;
}

/** One non-blank line: a problem, a line set aside, or a row to check. */
function readResultRow(
  bytes: Uint8Array,
  file: string,
  opts: CheckFileOptions,
  lineStart: number,
  end: number,
  lineNo: number,
  out: ResultRows,
): void {
  const { problems } = out;
  const head = scanLineHead(bytes, lineStart, end);
  if ("error" in head) {
    problems.push(problem("result-line-malformed", head.error, { file, line: lineNo }));
    return;
  }
  if (head.repeated.length > 0)
    out.repeatedKeys.push(problem("key-repeated", repeatedKeyMessage(head), { file, line: lineNo, severity: "warning" }));
  if (!opts.inputs.questions.has(head.id) || !opts.inputs.groundTruth.has(head.id)) {
    problems.push(
      problem("result-id-unknown", `${JSON.stringify(head.id)} is not in the BFCL data for ${opts.testCategory}`, { file, line: lineNo }),
    );
    return;
  }
  const involved = opts.inputs.questions.get(head.id)?.prompt.involvedClasses ?? [];
  const unknown = involved.filter((c) => !opts.process.canCreate(c));
  if (unknown.length > 0) {
    problems.push(
      problem("class-not-simulated", `${head.id} involves ${unknown.join(", ")}, which the simulator cannot build`, { file, line: lineNo }),
    );
    return;
  }
  // a line whose turns before the anchor were played from the reference holds the reference's calls there, not the model's
  if (head.historyStart >= 0 || head.playedStart >= 0) {
    const history = lineHistory(bytes, head);
    if ("error" in history) {
      problems.push(problem("history-malformed", history.error, { file, line: lineNo }));
      return;
    }
    if (history.kind === "reference") {
      out.playedFromReference.push(head.id);
      return;
    }
  }
  // a line cut short after its anchor turn is not a whole rollout: BFCL would count it incomplete
  if (stoppedAfterTurn(bytes, head) !== null) {
    out.stoppedAtAnchor.push(head.id);
    return;
  }
  out.rows.push({ id: head.id, line: lineNo, start: lineStart, end, resultStart: head.resultStart, resultEnd: head.resultEnd });
}

/** What checking a file's rows accumulates, and the decoders and output they share. */
interface FileCheckState {
  readonly bytes: Uint8Array;
  readonly file: string;
  readonly opts: CheckFileOptions;
  readonly problems: LineProblems;
  /** The steps the checker decodes, counted as score's extractor reads them (the wrong-decoder guard). */
  readonly decodeHealth: DecodeHealth;
  /** Lines whose `result` is not in BFCL's shape (a turn that is a string …): checked as BFCL would, and said in one line. */
  readonly shapes: Map<string, number>;
  firstShapeLine: number | null;
  readonly version: BfclVersion;
  readonly decoder: Decoder;
  /** Lines left per entry key: instances are released after the last line whose id names them. */
  readonly linesLeft: Map<string, number>;
  readonly verdicts: OurVerdict[];
  readonly warnings: Problem[];
  /** A step nested past Python's limits is dropped, as BFCL drops it, and its entry is reported. */
  nestingFailure: string | null;
  decodedEntry: boolean;
  /** The plain (`JSON.parse`) path: the decoder's own, if it declares one; a decoder without one reads Python values. */
  decodeStringArgs: StepDecoder | null;
  decodePython: StepDecoder;
  readonly scoreFile: ScoreFileBuilder | null;
  correct: number;
  officialCorrect: number;
  readonly readings: EntryReadings[] | null;
  readonly held: HeldLine[];
}

function newFileCheckState(bytes: Uint8Array, file: string, opts: CheckFileOptions, lines: ResultRows): FileCheckState {
  // without a decoder the run is read as BFCL reads a native function-calling run
  const decoder = opts.decoder ?? bfclDefaultDecoder("records");
  // a repeated id, or one that differs only in `-./:`, reuses its instances, as in BFCL's globals
  const linesLeft = new Map<string, number>();
  for (const row of lines.rows) {
    const key = opts.process.entryKey(row.id);
    linesLeft.set(key, (linesLeft.get(key) ?? 0) + 1);
  }
  const revision = opts.process.revision;
  const state: FileCheckState = {
    bytes,
    file,
    opts,
    problems: lines.problems,
    decodeHealth: newDecodeHealth(),
    shapes: new Map(),
    firstShapeLine: null,
    version: opts.bfclVersion ?? revision.version,
    decoder,
    linesLeft,
    verdicts: [],
    warnings: [...lines.repeatedKeys],
    nestingFailure: null,
    decodedEntry: false,
    decodeStringArgs: null,
    decodePython: decoder.decode,
    scoreFile: opts.renderScore
      ? new ScoreFileBuilder(bytes.length, opts.scoreScratch, {
          ascii: revision.scoreFileAscii,
          finalNewline: revision.scoreFileFinalNewline,
        })
      : null,
    correct: 0,
    officialCorrect: 0,
    readings: opts.emptyTurns === undefined ? null : [],
    held: [],
  };
  const noting =
    (decode: StepDecoder): StepDecoder =>
    (step) => {
      state.decodedEntry = true;
      const out = decode(step);
      if (state.nestingFailure === null && isNestingFailure(out)) state.nestingFailure = out.error;
      return out;
    };
  const plainDecode = opts.decode === undefined ? decoder.plain?.decode : opts.decodePlain;
  state.decodeStringArgs = plainDecode === undefined ? null : noting(plainDecode);
  state.decodePython = noting(opts.decode ?? decoder.decode);
  return state;
}

/** A row's `result`: as `JSON.parse` gives it, and as `json.loads` does unless the plain path reads it. */
interface ParsedResult {
  readonly result: unknown;
  readonly stringArgs: boolean;
  readonly pyResult: PyValue;
}

/** Parse a row's `result` (null: a problem was recorded, or the file is already reported and the row only parsed). */
function parseRowResult(check: FileCheckState, row: ResultRow): ParsedResult | null {
  const { bytes, file, problems } = check;
  const resultText = utf8.decode(bytes.subarray(row.resultStart, row.resultEnd));
  let result: unknown;
  try {
    result = JSON.parse(resultText);
  } catch (e) {
    problems.push(problem("json-malformed", `\`result\` is not JSON: ${(e as Error).message}`, { file, line: row.line }));
    return null;
  }
  // BFCL reads each line with json.loads, which gives up past its recursion limit (the
  // line's object is one level more than `result`): such a line is malformed like any other
  if (resultText.length > 2 * (JSON_DECODE_MAX_DEPTH - 1) && jsonNestsDeeperThan(result, JSON_DECODE_MAX_DEPTH - 1)) {
    const refused = jsonLoadsError(utf8.decode(bytes.subarray(row.start, row.end)));
    if (refused !== null) {
      problems.push(problem("json-malformed", `line is not JSON: ${refused}`, { file, line: row.line }));
      return null;
    }
  }
  // after a malformed line the file is reported, not checked: the rest is only parsed, for their problems
  if (problems.count > 0) return null;
  const shape = resultShapeFound(result);
  if (shape !== null) {
    check.shapes.set(shape, (check.shapes.get(shape) ?? 0) + 1);
    check.firstShapeLine ??= row.line;
  }
  const stringArgs = check.decodeStringArgs !== null && stepsAreStringArgs(result);
  let pyResult: PyValue = null;
  if (!stringArgs) {
    try {
      pyResult = jsonLoadsOrThrow(resultText);
    } catch (e) {
      if (!(e instanceof PyException)) throw e;
      problems.push(problem("json-malformed", `\`result\` is not JSON: ${e.pyType}: ${e.pyMessage}`, { file, line: row.line }));
      return null;
    }
  }
  return { result, stringArgs, pyResult };
}

/** BFCL's checker on one entry: its verdict, null when the evaluator stops (recorded), or a stop for the whole file. */
function verdictOfRow(
  check: FileCheckState,
  row: ResultRow,
  parsed: ParsedResult,
): { verdict: EntryVerdict } | { stop: Result<FileCheck> } | null {
  const { opts, file } = check;
  const q = opts.inputs.questions.get(row.id) as PreparedQuestion;
  const gt = opts.inputs.groundTruth.get(row.id) as readonly (readonly string[])[];
  check.nestingFailure = null;
  check.decodedEntry = false;
  try {
    const verdict = parsed.stringArgs
      ? checkEntry(parsed.result as PyValue, gt, q.prompt, {
          modelName: opts.modelName,
          process: opts.process,
          decode: check.decodeStringArgs!,
        })
      : checkEntry(parsed.pyResult, gt, q.prompt, { modelName: opts.modelName, process: opts.process, decode: check.decodePython });
    return { verdict };
  } catch (e) {
    if (e instanceof EvaluatorStops) {
      check.problems.push(
        problem(
          "evaluator-stops",
          `${row.id}: BFCL ${opts.process.revision.version}'s evaluator stops the whole category here (${e.pythonError}) and writes no score file`,
          { file, line: row.line },
        ),
      );
      return null;
    }
    if (!(e instanceof InstanceNamedInCall)) throw e;
    return {
      stop: err(
        problem(INSTANCE_NAMED, `${row.id} names the instance ${e.instanceName}: rerun in an exact process`, { file, line: row.line }),
      ),
    };
  }
}

/**
 * What follows an entry's verdict: its steps counted for the decode health, its warnings,
 * the counts and empty-turn readings, and its instances released after its last line.
 * Returns the verdict that is scored (the empty-turn reading's when one is asked for).
 */
function afterEntryChecked(
  check: FileCheckState,
  row: ResultRow,
  result: unknown,
  official: EntryVerdict,
): { verdict: EntryVerdict; afterInferenceError: boolean } {
  const { opts, file, version } = check;
  const q = opts.inputs.questions.get(row.id) as PreparedQuestion;
  const gt = opts.inputs.groundTruth.get(row.id) as readonly (readonly string[])[];
  if (check.decodedEntry && Array.isArray(result)) {
    const tools = toolsOfClasses(q.prompt.involvedClasses, version);
    const extractor = { decoder: check.decoder };
    for (const turn of result) countTurn(check.decodeHealth, extractTurn(turn, tools, extractor));
  }
  if (check.nestingFailure !== null) {
    check.warnings.push(
      problem("step-too-deep", `${row.id}: a step nests too deeply to decode (${check.nestingFailure}); it is dropped, as BFCL drops it`, {
        file,
        line: row.line,
        severity: "warning",
      }),
    );
  }
  if (opts.process.notes.length > 0) check.warnings.push(notesWarning(row.id, opts.process.notes.splice(0), file, row.line));
  if (official.valid) check.officialCorrect++;
  const afterInferenceError = official.afterInferenceError === true;
  let verdict = official;
  if (opts.emptyTurns !== undefined) {
    const strict = withEmptyTurnsScored(official, "strict", result, gt, q.prompt.involvedClasses, version, check.decoder);
    const worldChanging = withEmptyTurnsScored(official, "world-changing", result, gt, q.prompt.involvedClasses, version, check.decoder);
    check.readings?.push({ id: row.id, bfcl: official.valid, strict: strict.valid, worldChanging: worldChanging.valid });
    verdict = opts.emptyTurns === "strict" ? strict : worldChanging;
  }
  const key = opts.process.entryKey(row.id);
  const left = (check.linesLeft.get(key) as number) - 1;
  check.linesLeft.set(key, left);
  if (left === 0) opts.process.releaseEntry(key);
  if (verdict.valid) check.correct++;
  return { verdict, afterInferenceError };
}

/** The entry's verdicts and score lines: usually none or one; v3 can write an inference-error line before another. */
function recordVerdicts(check: FileCheckState, row: ResultRow, verdict: EntryVerdict, afterInferenceError: boolean): void {
  const failed: FailedVerdict[] = [];
  if (afterInferenceError) failed.push(inferenceErrorVerdict());
  if (!verdict.valid) failed.push(verdict);
  if (failed.length === 0) {
    check.verdicts.push({ id: row.id, valid: true });
    return;
  }
  const verbatim = check.opts.renderScore ? verbatimParts(check, row) : null;
  if (verbatim === null && check.opts.renderScore) return;
  for (const f of failed) {
    const errorJson = verbatim === null ? undefined : renderFailedLine(check, row, f, verbatim);
    check.verdicts.push({ id: row.id, valid: false, errorType: f.errorType, errorMessage: f.errorMessage, errorJson });
  }
}

/**
 * The verbatim parts of a failed entry's line (result, inference_log): copied byte for byte
 * when already in json.dumps form; else re-dumped from the text (same bytes as json.loads +
 * json.dumps); else json.loads when even that cannot be proven. Null when BFCL's json.loads
 * of the whole line fails the same way (recorded: the file is reported).
 */
function verbatimParts(check: FileCheckState, row: ResultRow): ((key: string) => PyValue | RenderedJson | VerbatimJson) | null {
  const parts = scoreLineParts(check.bytes, row.start, row.end);
  if (parts !== null) return (key) => parts.get(key) ?? "";
  let line: PyDict;
  try {
    line = jsonLoadsOrThrow(utf8.decode(check.bytes.subarray(row.start, row.end))) as PyDict;
  } catch (e) {
    if (!(e instanceof PyException)) throw e;
    check.problems.push(problem("json-malformed", `line is not JSON: ${e.pyMessage}`, { file: check.file, line: row.line }));
    return null;
  }
  return (key) => (line.has(key) ? (line.get(key) as PyValue) : "");
}

/**
 * One failed verdict's score line, written now or held while its error names an object the
 * process still changes. Returns the error's JSON when it was rendered now.
 */
function renderFailedLine(
  check: FileCheckState,
  row: ResultRow,
  f: FailedVerdict,
  verbatim: (key: string) => PyValue | RenderedJson | VerbatimJson,
): string | undefined {
  const { opts, file, warnings, held } = check;
  const q = opts.inputs.questions.get(row.id) as PreparedQuestion;
  const gt = opts.inputs.groundTruth.get(row.id) as readonly (readonly string[])[];
  const revision = opts.process.revision;
  const prompt = renderedPrompts.get(q) ?? new RenderedJson(dumpScoreValue(q.scorePrompt));
  renderedPrompts.set(q, prompt);
  const { id, line: lineNo } = row;
  const chunks = (json: string) =>
    failedEntryChunks({
      id,
      modelName: opts.modelName,
      testCategory: opts.testCategory,
      verdict: f,
      error: new RenderedJson(json),
      prompt,
      result: verbatim("result"),
      groundTruth: gt,
      inferenceLog: f.runnerLevel && !revision.inferenceLogOnRunnerLines ? undefined : verbatim("inference_log"),
    });
  const live = opts.process.moduleState?.holdsSharedObject(f.error) === true;
  if (live) {
    held.push({
      verdictIndex: check.verdicts.length,
      chunks: null,
      render: () => ({ json: renderError(f.error, id, file, lineNo, warnings), chunks }),
    });
    return undefined;
  }
  const errorJson = renderError(f.error, id, file, lineNo, warnings);
  if (held.length > 0) held.push({ verdictIndex: check.verdicts.length, chunks: chunks(errorJson), render: null });
  else check.scoreFile?.addLine(chunks(errorJson));
  return errorJson;
}

/** The file's result once every row is checked: its problems, or its counts, score file and warnings. */
function finishFileCheck(check: FileCheckState, lines: ResultRows): Result<FileCheck> {
  const { problems, warnings, opts } = check;
  if (problems.count > 0)
    return errAll(problems.toArray().sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER)));
  writeHeldLines(check.held, check.verdicts, check.scoreFile);
  if (check.shapes.size > 0) {
    const consequence =
      "They are checked as BFCL's checker reads them: a turn that is not a list of steps holds no call it runs, so their verdicts say nothing of the model's calls";
    warnings.push(
      problem("not-bfcl-lines", notBfclLinesMessage(opts.modelName, check.shapes, consequence), {
        file: check.file,
        line: check.firstShapeLine!,
        severity: "warning",
      }),
    );
  }
  const total = lines.rows.length;
  return ok({
    correct: check.correct,
    officialCorrect: check.officialCorrect,
    readings: check.readings,
    total,
    scoreFile: check.scoreFile === null ? null : check.scoreFile.finish(check.correct, total),
    verdicts: check.verdicts,
    decodeHealth: check.decodeHealth,
    warnings,
    stoppedAtAnchor: lines.stoppedAtAnchor,
    playedFromReference: lines.playedFromReference,
  });
}
