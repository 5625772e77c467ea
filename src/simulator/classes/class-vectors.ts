/**
 * Replays the Python-recorded vectors of `tools/gen-class-vectors.py` against a TS class
 * and reports every difference. The vectors hold only what BFCL's Python produced (result
 * strings, per-turn attribute reprs, digests); the calls of ground-truth and model cases
 * are rebuilt here from the shared BFCL data and rollouts with the same filter the
 * generator used, so no BFCL text is committed. long_context cases were recorded on the
 * synthetic filler `testdata/synthetic-long-context.py` (our own values, BFCL's names and
 * shapes), which the tests parse with `parseLongContextModule` — no BFCL checkout needed.
 * Pure: file contents come in through `VectorIo`, so the class tests (and anyone else)
 * can drive it.
 */
import { createHash } from "node:crypto";
import type { PyExpr } from "../../python/ast.js";
import { PyDict } from "../../python/containers.js";
import { PyException } from "../../python/exception.js";
import { jsonLoadsOrThrow } from "../../python/json.js";
import { evalLiteral } from "../../python/literal-eval.js";
import { parseExpression } from "../../python/parse.js";
import { parseLongContextModule } from "../long-context.js";
import { pyDeepCopy } from "../../python/copy.js";
import { pyRepr } from "../../python/repr.js";
import type { PyValue } from "../../python/value.js";
import { bindArguments, resultToString } from "../executor.js";
import { decodeFcStep } from "../../bfcl/decode/index.js";
import type { ApiInstance, LongContextData } from "../types.js";
import { PythonProcess } from "./process.js";
import type { TodayClock } from "./class-support.js";

/** Where the replay gets file contents (paths relative to the shared folder). */
export interface VectorIo {
  /** Text of a file under the shared data folder, e.g. `bfcl-v4/BFCL_v4_multi_turn_base.json`. */
  readShared(relativePath: string): string;
  /** The synthetic long_context constants the vectors were recorded with (read lazily, once); needed only by long_context cases. */
  filler?: () => LongContextData;
}

/** Builds the instance under test inside a fresh simulated process. */
export type MakeInstance = (process: PythonProcess, today: TodayClock) => ApiInstance;

/** One recorded case's outcome. */
export interface CaseOutcome {
  readonly name: string;
  readonly kind: "gt" | "model" | "inline";
  readonly calls: number;
  readonly mismatches: string[];
}

interface RecordedTurn {
  calls?: string[];
  results: string[];
  state: Record<string, string>;
}

interface RecordedCase {
  name: string;
  source:
    | { kind: "gt"; category: string; entry: string }
    | { kind: "model"; run: string; model: string; category: string; entry: string }
    | { kind: "inline"; configJson: string };
  longContext: boolean;
  initialState: string;
  turns: RecordedTurn[];
}

interface VectorDoc {
  class: string;
  today: [number, number, number];
  attributes: string[];
  cases: RecordedCase[];
}

function sha256(s: string): string {
  return createHash("sha256").update(s, "utf8").digest("hex");
}

function short(s: string): string {
  return s.length > 400 ? `${s.slice(0, 400)}…(${s.length} chars)` : s;
}

type ParsedCall = { name: string; args: PyExpr[]; keywords: { arg: string; value: PyExpr }[] };

/** The generator's `parse_call`: a bare-name call whose arguments are all literals. */
function parseCall(text: string): ParsedCall | null {
  const parsed = parseExpression(text.trim());
  if (!parsed.ok || parsed.expr.kind !== "call" || parsed.expr.func.kind !== "name") return null;
  const call = parsed.expr;
  if (call.args.some((a) => a.kind === "starred") || call.keywords.some((k) => k.arg === null)) return null;
  try {
    for (const a of call.args) evalLiteral(a);
    for (const k of call.keywords) evalLiteral(k.value);
  } catch (e) {
    if (e instanceof PyException) return null;
    throw e;
  }
  return { name: (call.func as { id: string }).id, args: call.args, keywords: call.keywords as { arg: string; value: PyExpr }[] };
}

/** Runs one call directly on the instance and renders the result as BFCL's executor does. */
export function runCall(inst: ApiInstance, text: string): string {
  const call = parseCall(text);
  if (!call) throw new Error(`not a literal call: ${text}`);
  const spec = inst.methods.get(call.name);
  if (!spec) throw new Error(`${inst.className} has no method ${call.name}`);
  try {
    const positional = call.args.map((a) => evalLiteral(a));
    const keywords = call.keywords.map((k) => [k.arg, evalLiteral(k.value)] as const);
    const bound = bindArguments(`${inst.className}.${call.name}`, spec, positional, keywords);
    return resultToString(spec.invoke(bound, inst));
  } catch (e) {
    if (e instanceof PyException) return `Error during execution: ${e.pyMessage}`;
    if (e instanceof RangeError) return "Error during execution: maximum recursion depth exceeded";
    throw e;
  }
}

function belongs(inst: ApiInstance, text: string): boolean {
  const call = parseCall(text);
  return call !== null && inst.methods.has(call.name);
}

/** A JSON.parse value as a Python value (numbers: integral → int, else float; only used where no number matters). */
function fromJs(v: unknown): PyValue {
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(fromJs);
  return new PyDict(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, fromJs(x)] as const));
}

/** Reads and caches the shared JSON Lines files the cases refer to. */
class SharedData {
  private readonly files = new Map<string, Map<string, PyDict>>();
  private fillerData: LongContextData | undefined;
  constructor(private readonly io: VectorIo) {}

  filler(): LongContextData {
    this.fillerData ??= this.io.filler?.();
    if (!this.fillerData) throw new Error("long_context filler is not available");
    return this.fillerData;
  }

  /**
   * The lines of a JSON Lines file by id. `python` parses with Python's int/float
   * distinction (needed for initial_config); otherwise the faster JS parser is used and
   * only the `keep` field is converted to Python values (call strings and FC steps hold
   * only strings).
   */
  byId(relativePath: string, python = false, keep = ""): Map<string, PyDict> {
    let m = this.files.get(relativePath);
    if (!m) {
      m = new Map();
      for (const line of this.io.readShared(relativePath).split("\n")) {
        if (line.trim() === "") continue;
        let obj: PyDict;
        if (python) obj = jsonLoadsOrThrow(line) as PyDict;
        else {
          const raw = JSON.parse(line) as Record<string, unknown>;
          obj = new PyDict([["id", raw.id as string], [keep, fromJs(raw[keep])]]);
        }
        m.set(obj.get("id") as string, obj);
      }
      this.files.set(relativePath, m);
    }
    return m;
  }

  entry(category: string, id: string): PyDict {
    const e = this.byId(`bfcl-v4/BFCL_v4_multi_turn_${category}.json`, true).get(id);
    if (!e) throw new Error(`entry ${id} not found in ${category}`);
    return e;
  }

  groundTruth(category: string, id: string): string[][] {
    const a = this.byId(`bfcl-v4/possible_answer/BFCL_v4_multi_turn_${category}.json`, false, "ground_truth").get(id);
    if (!a) throw new Error(`ground truth ${id} not found in ${category}`);
    return a.get("ground_truth") as string[][];
  }

  modelTurns(run: string, model: string, category: string, id: string): PyValue[][] {
    const line = this.byId(`rollouts/gpt-oss/${run}/result/${model}/multi_turn/BFCL_v4_multi_turn_${category}_result.json`, false, "result").get(id);
    if (!line) throw new Error(`result ${id} not found in ${run}/${model}/${category}`);
    return line.get("result") as PyValue[][];
  }
}

function stateReprs(inst: ApiInstance): [string, string][] {
  return inst.publicState().map(([k, v]) => [k, pyRepr(v)]);
}

/** Replays every case of a vector file (its JSON text); one outcome per case. */
export function replayVectorFile(vectorText: string, make: MakeInstance, io: VectorIo): CaseOutcome[] {
  const doc = JSON.parse(vectorText) as VectorDoc;
  const data = new SharedData(io);
  const today: TodayClock = () => doc.today;
  return doc.cases.map((c) => replayCase(doc, c, make, today, data, io));
}

function replayCase(doc: VectorDoc, c: RecordedCase, make: MakeInstance, today: TodayClock, data: SharedData, io: VectorIo): CaseOutcome {
  const mismatches: string[] = [];
  const inst = make(new PythonProcess(), today);
  let config: PyValue;
  let turnsCalls: string[][];
  const src = c.source;
  if (src.kind === "inline") {
    config = jsonLoadsOrThrow(src.configJson);
    turnsCalls = c.turns.map((t) => t.calls ?? []);
  } else {
    const entry = data.entry(src.category, src.entry);
    const cfg = (entry.get("initial_config") as PyDict).get(doc.class);
    config = pyDeepCopy(cfg ?? new PyDict());
    if (src.kind === "gt") {
      turnsCalls = data.groundTruth(src.category, src.entry).map((turn) => turn.filter((t) => belongs(inst, t)));
    } else {
      turnsCalls = data.modelTurns(src.run, src.model, src.category, src.entry).map((turn) => {
        const calls: string[] = [];
        for (const step of turn) {
          const decoded = decodeFcStep(step);
          if (decoded.ok) calls.push(...decoded.calls.filter((t) => belongs(inst, t)));
        }
        return calls;
      });
    }
  }
  if (c.longContext && !io.filler) throw new Error(`${c.name}: long_context case but no filler was provided`);
  inst.loadScenario(config as PyDict, c.longContext, c.longContext ? data.filler() : undefined);
  const initial = stateReprs(inst);
  const digest = sha256(initial.map(([k, v]) => `${k}=${v}\n`).join(""));
  if (digest !== c.initialState) mismatches.push(`${c.name}: loaded state differs: ${short(initial.map(([k, v]) => `${k}=${v}`).join(" | "))}`);
  const expected = new Map(initial);
  if (turnsCalls.length !== c.turns.length) {
    mismatches.push(`${c.name}: rebuilt ${turnsCalls.length} turns, recorded ${c.turns.length}`);
    return { name: c.name, kind: src.kind, calls: 0, mismatches };
  }
  let calls = 0;
  c.turns.forEach((turn, ti) => {
    const texts = turnsCalls[ti];
    if (texts.length !== turn.results.length) {
      mismatches.push(`${c.name} turn ${ti}: rebuilt ${texts.length} calls, recorded ${turn.results.length}`);
      return;
    }
    texts.forEach((text, ci) => {
      calls++;
      const got = runCall(inst, text);
      if (got !== turn.results[ci]) mismatches.push(`${c.name} turn ${ti} call ${ci} ${short(text)}\n  expected ${short(turn.results[ci])}\n  got      ${short(got)}`);
    });
    for (const [k, v] of Object.entries(turn.state)) expected.set(k, v);
    const now = stateReprs(inst);
    const names = now.map(([k]) => k);
    if (names.join(",") !== doc.attributes.join(",")) mismatches.push(`${c.name} turn ${ti}: attributes ${names.join(",")}`);
    for (const [k, got] of now) {
      if (got !== expected.get(k)) mismatches.push(`${c.name} turn ${ti} state ${k}\n  expected ${short(expected.get(k) ?? "(none)")}\n  got      ${short(got)}`);
    }
  });
  return { name: c.name, kind: src.kind, calls, mismatches };
}

/** Totals over the outcomes of one kind of case, with the mismatches (first 20) for a readable failure. */
export function summarize(outcomes: readonly CaseOutcome[], kind: CaseOutcome["kind"]): { cases: number; calls: number; failedCases: number; mismatches: string[] } {
  const mine = outcomes.filter((o) => o.kind === kind);
  const failed = mine.filter((o) => o.mismatches.length > 0);
  return {
    cases: mine.length,
    calls: mine.reduce((n, o) => n + o.calls, 0),
    failedCases: failed.length,
    mismatches: failed.flatMap((o) => o.mismatches).slice(0, 20),
  };
}

/**
 * The synthetic long_context filler (text of `testdata/synthetic-long-context.py`) as
 * the classes take it, parsed by the project's own long_context reader so the tests go
 * through the same path as `twinscore check`. Throws on a parse problem: a broken
 * fixture is a test failure, not bad user input.
 */
export function parseSyntheticFiller(text: string, file: string): LongContextData {
  const parsed = parseLongContextModule(text, file);
  if (!parsed.ok) throw new Error(`cannot read ${file}: ${parsed.problems.map((q) => q.message).join("; ")}`);
  return parsed.value;
}
