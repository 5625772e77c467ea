/**
 * The one replay harness for the API classes' test vectors, which two generators record by running BFCL's own
 * Python classes on the real data (`tools/class-vectors.py`, `tools/gen-class-vectors.py`). Both are replayed
 * through the executor's own pieces; the vectors hold no BFCL text. More in this folder's README.md.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BfclVersion } from "../bfcl/data.js";
import { decodeFcStep } from "../bfcl/decode/index.js";
import type { ApiClass } from "../catalog/types.js";
import { renderProblemLine } from "../messages/index.js";
import type { PyExpr } from "../python/ast.js";
import { PyDict, PySet, PyTuple } from "../python/containers.js";
import { pyDeepCopy } from "../python/copy.js";
import { PyException } from "../python/exception.js";
import { jsonLoadsOrThrow } from "../python/json.js";
import { evalLiteral } from "../python/literal-eval.js";
import { parseExpression } from "../python/parse.js";
import { floatRepr, pyRepr } from "../python/repr.js";
import { decodeTagged, type TaggedValue } from "../python/testing/test-vectors.js";
import type { PyValue } from "../python/value.js";
import type { TodayClock } from "../simulator/classes/class-support.js";
import { PyDirectory, PyFile } from "../simulator/classes/gorilla-file-system.js";
import { apiFactories, PythonProcess } from "../simulator/classes/index.js";
import { POST_TWEET_DEFAULTS } from "../simulator/classes/twitter-api.js";
import { bindArguments, resultToString } from "../simulator/executor.js";
import { parseLongContextModule } from "../simulator/long-context.js";
import type { ApiInstance, LongContextData } from "../simulator/types.js";
import { loggedDecodes } from "./logged-decodes.js";
import { projectRoot, sharedPath } from "./shared.js";

const classesDir = join(projectRoot, "src", "simulator", "classes");

// ---------------------------------------------------------------------------------------
// Shared pieces

/** The committed synthetic long_context module the vectors were recorded with. */
export const SYNTHETIC_FILLER_PATH = join(classesDir, "testdata", "synthetic-long-context.py");

let fillerCache: LongContextData | undefined;

/** The synthetic long_context constants, parsed with the project's own long_context reader (the one real BFCL modules go through). */
export function syntheticFiller(): LongContextData {
  if (fillerCache) return fillerCache;
  const parsed = parseLongContextModule(readFileSync(SYNTHETIC_FILLER_PATH, "utf8"), SYNTHETIC_FILLER_PATH);
  if (!parsed.ok) throw new Error(parsed.problems.map((p) => renderProblemLine(p)).join("\n"));
  fillerCache = parsed.value;
  return fillerCache;
}

const linesCache = new Map<string, Map<string, PyDict>>();

/** A JSON Lines file of the shared folder by id, each line read with Python's JSON (ints and floats kept apart). */
function byId(...parts: string[]): Map<string, PyDict> {
  const path = sharedPath(...parts);
  let m = linesCache.get(path);
  if (!m) {
    m = new Map();
    for (const line of readFileSync(path, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      const e = jsonLoadsOrThrow(line) as PyDict;
      m.set(e.get("id") as string, e);
    }
    linesCache.set(path, m);
  }
  return m;
}

/** A question entry of a BFCL release's data. */
function questionEntry(version: BfclVersion, category: string, id: string): PyDict {
  const e = byId(`bfcl-${version}`, `BFCL_${version}_multi_turn_${category}.json`).get(id);
  if (!e) throw new Error(`entry ${id} not found in ${version} ${category}`);
  return e;
}

/** An entry's reference calls. */
function referenceTurns(version: BfclVersion, category: string, id: string): string[][] {
  const a = byId(`bfcl-${version}`, "possible_answer", `BFCL_${version}_multi_turn_${category}.json`).get(id);
  if (!a) throw new Error(`reference ${id} not found in ${version} ${category}`);
  return a.get("ground_truth") as string[][];
}

/** The result file of a stored run: gpt-oss (v4, FC, nested layout) or xLAM (v3, raw JSON text, flat layout). */
function resultPath(version: BfclVersion, run: string, model: string, category: string): string[] {
  return version === "v3"
    ? ["rollouts", "xlam-v3", "result", model, `BFCL_v3_multi_turn_${category}_result.json`]
    : ["rollouts", "gpt-oss", run, "result", model, "multi_turn", `BFCL_v4_multi_turn_${category}_result.json`];
}

const logCache = new Map<string, ReturnType<typeof loggedDecodes>>();

/**
 * A stored model's steps of one entry, each decoded as BFCL decodes it: FC records with
 * BFCL's `convert_to_function_call`, xLAM's text as BFCL logged it.
 */
function decodedModelSteps(version: BfclVersion, run: string, model: string, category: string, id: string): string[][][] {
  const parts = resultPath(version, run, model, category);
  const line = byId(...parts).get(id);
  if (!line) throw new Error(`result ${id} not found in ${parts.join("/")}`);
  const result = line.get("result");
  if (!Array.isArray(result)) return [];
  let logs: ReturnType<typeof loggedDecodes> | undefined;
  if (version === "v3") {
    const key = parts.join("/");
    logs = logCache.get(key) ?? loggedDecodes(readFileSync(sharedPath(...parts), "utf8"));
    logCache.set(key, logs);
  }
  return result.map((turn) =>
    (Array.isArray(turn) ? turn : []).map((step) => {
      const d = logs ? logs.get(step as string) : decodeFcStep(step);
      return d && d.ok ? d.calls : [];
    }),
  );
}

/**
 * A stored model's calls of one entry by turn and step, as (name, keyword arguments): FC
 * records read item by item (`{name: "<json args>"}`, any argument name), xLAM's steps from
 * the calls BFCL logged for them (parsed; a call that does not parse is left out of its step's count).
 */
function modelStepCalls(
  version: BfclVersion,
  run: string,
  model: string,
  category: string,
  id: string,
): { name: string; kwargs: () => PyDict }[][][] {
  if (version === "v3") {
    return decodedModelSteps(version, run, model, category, id).map((turn) =>
      turn.map((step) =>
        step.map((text) => {
          const call = parseLiteralCall(text);
          if (!call) return { name: "", kwargs: () => new PyDict() };
          return { name: call.name, kwargs: () => new PyDict(call.keywords.map((k) => [k.arg, evalLiteral(k.value)] as const)) };
        }),
      ),
    );
  }
  const line = byId(...resultPath(version, run, model, category)).get(id);
  const result = line?.get("result");
  if (!Array.isArray(result)) return [];
  return result.map((turn) =>
    (Array.isArray(turn) ? turn : []).map((step) =>
      (Array.isArray(step) ? step : []).flatMap((item) =>
        // arguments are read only for the calls a vector names (others may not even be JSON)
        item instanceof PyDict
          ? item.entries().map(([name, args]) => ({
              name: name as string,
              kwargs: () => (typeof args === "string" ? jsonLoadsOrThrow(args) : args) as PyDict,
            }))
          : [],
      ),
    ),
  );
}

type LiteralCall = { name: string; args: PyExpr[]; keywords: { arg: string; value: PyExpr }[] };

/** A bare-name call whose arguments are all literals (the generators' `parse_call`), or null. */
function parseLiteralCall(text: string): LiteralCall | null {
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

/** A method call on an instance, bound like Python binds it: the result string, or a TypeError from binding. */
function invoke(
  inst: ApiInstance,
  name: string,
  positional: readonly PyValue[],
  keywords: readonly (readonly [string, PyValue])[],
): { bound: false; error: string } | { bound: true; run: () => PyValue } {
  const spec = inst.methods.get(name);
  if (!spec) throw new Error(`${inst.className} has no method ${name}`);
  try {
    const args = bindArguments(`${inst.className}.${name}`, spec, positional, keywords);
    return { bound: true, run: () => spec.invoke(args, inst) };
  } catch (e) {
    if (e instanceof PyException && e.pyType === "TypeError") return { bound: false, error: e.pyMessage };
    throw e;
  }
}

/** Runs one literal call text directly on the instance and renders the result as BFCL's executor does. */
export function runCall(inst: ApiInstance, text: string): string {
  const call = parseLiteralCall(text);
  if (!call) throw new Error(`not a literal call: ${text}`);
  try {
    const bound = invoke(
      inst,
      call.name,
      call.args.map((a) => evalLiteral(a)),
      call.keywords.map((k) => [k.arg, evalLiteral(k.value)] as const),
    );
    if (!bound.bound) return `Error during execution: ${bound.error}`;
    return resultToString(bound.run());
  } catch (e) {
    if (e instanceof PyException) return `Error during execution: ${e.pyMessage}`;
    if (e instanceof RangeError) return "Error during execution: maximum recursion depth exceeded";
    throw e;
  }
}

function sha256(s: string): string {
  return createHash("sha256").update(s, "utf8").digest("hex");
}

function short(s: string): string {
  return s.length > 400 ? `${s.slice(0, 400)}…(${s.length} chars)` : s;
}

/** The category of an id (`multi_turn_miss_func_3` → `miss_func`). */
function categoryOf(id: string): string {
  return id.replace(/^multi_turn_/, "").replace(/_\d+$/, "");
}

/** A fresh process of a release's class sources; `seed` fills post_tweet's shared default lists. */
function newProcess(version: BfclVersion, seed?: SequenceVector["seed"]): PythonProcess {
  return new PythonProcess(version, seed === undefined ? undefined : new Map([[POST_TWEET_DEFAULTS, seed]]));
}

/** A loaded instance of `cls` for a config, as the executor loads it (a deep copy of the config). */
function loaded(cls: ApiClass, config: PyDict, longContext: boolean, process: PythonProcess): ApiInstance {
  const inst = apiFactories(process).get(cls)!();
  if (cls !== "MathAPI") {
    const c = config.get(cls);
    inst.loadScenario(c instanceof PyDict ? pyDeepCopy(c) : new PyDict(), longContext, longContext ? syntheticFiller() : undefined);
  }
  return inst;
}

// ---------------------------------------------------------------------------------------
// Sequence vectors of tools/class-vectors.py (GorillaFileSystem, MathAPI, MessageAPI, TwitterAPI)

/** The four classes these vectors cover. */
export const VECTOR_CLASSES: readonly ApiClass[] = ["GorillaFileSystem", "MathAPI", "MessageAPI", "TwitterAPI"];

/** What BFCL's Python did for one call. */
interface CallVector {
  at?: number[];
  name?: string;
  args?: TaggedValue;
  kwargs?: TaggedValue;
  r?: string;
  h?: string;
  n?: number;
  e?: string;
  m?: string;
  bind?: string;
  re?: string;
}
interface TurnVector {
  calls: CallVector[];
  state: Record<string, string>;
}
interface SequenceVector {
  id: string;
  run?: string;
  model?: string;
  category?: string;
  classes: ApiClass[];
  init?: Record<string, string>;
  turns?: TurnVector[];
  longContext?: boolean;
  calls?: CallVector[];
  state?: Record<string, string>;
  stateB?: Record<string, string>;
  /** Error paths: the entry whose scenario instance B loads (the next entry of the same process); default `id`. */
  idB?: string;
  /** Error paths: what post_tweet's shared default lists hold when the sequence starts. */
  seed?: { tags?: string[]; mentions?: string[] };
}

/** Totals and the first differences for one vector family and one class. */
export interface ReplayReport {
  sequences: number;
  calls: number;
  passed: number;
  states: number;
  statesPassed: number;
  failures: string[];
}

const SHORT = 160;

function sequenceVectorsDir(version: BfclVersion): string {
  return version === "v4" ? join(classesDir, "vectors") : join(classesDir, "vectors", version);
}

function loadSequences(name: string, version: BfclVersion): SequenceVector[] {
  return JSON.parse(readFileSync(join(sequenceVectorsDir(version), `${name}.json`), "utf8")) as SequenceVector[];
}

/** Whether a release has sequence vectors of this family (the generator writes each family it can build). */
export function hasSequenceVectors(name: string, version: BfclVersion): boolean {
  return existsSync(join(sequenceVectorsDir(version), `${name}.json`));
}

/** sha256 prefix, as the generator writes it. */
function digest(s: string): string {
  return sha256(s).slice(0, 20);
}

/** Canonical tagged form of a state value (sets sorted, cycles marked), matching `canon` in the generator. */
function canon(v: PyValue, active: Set<PyDict> = new Set()): unknown {
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  if (typeof v === "bigint") return { i: v.toString() };
  if (typeof v === "number") return { f: floatRepr(v) };
  if (Array.isArray(v)) return v.map((x) => canon(x, active));
  if (v instanceof PyTuple) return { t: v.items.map((x) => canon(x, active)) };
  if (v instanceof PyDict) return { d: v.entries().map(([k, x]) => [canon(k, active), canon(x, active)]) };
  if (v instanceof PySet) {
    const items = v.values().map((x) => canon(x, active));
    items.sort((a, b) => (dumps(a) < dumps(b) ? -1 : dumps(a) > dumps(b) ? 1 : 0));
    return { s: items };
  }
  if (v instanceof PyFile) return { F: [canon(v.name, active), canon(v.content, active)] };
  if (v instanceof PyDirectory) {
    if (active.has(v.contents)) return "<cycle>";
    active.add(v.contents);
    const out = { D: [canon(v.name, active), canon(v.contents, active)] };
    active.delete(v.contents);
    return out;
  }
  throw new Error(`no canonical form for ${v.pyTypeName}`);
}

/** `json.dumps(x, separators=(",", ":"), ensure_ascii=True)` of plain JSON data. */
function dumps(x: unknown): string {
  return JSON.stringify(x).replace(/[\u0080-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}

/** Digest of an instance's public state, as the generator computes it. */
export function stateDigest(inst: ApiInstance): string {
  return digest(dumps(inst.publicState().map(([k, v]) => [k, canon(v)])));
}

/** Run one call and describe how it differs from the vector, or null when it matches. */
function check(inst: ApiInstance, name: string, args: PyValue[], kwargs: PyDict, want: CallVector): string | null {
  const call = invoke(inst, name, args, kwargs.entries() as [string, PyValue][]);
  if (!call.bound) return want.bind !== undefined ? null : `TS binding failed (${call.error}) where Python ran the call`;
  if (want.bind !== undefined) return `Python binding failed (${want.bind}) where TS bound the call`;
  let got: string;
  try {
    const text = resultToString(call.run());
    if (want.r !== undefined) return text === want.r ? null : `want ${JSON.stringify(want.r)} got ${JSON.stringify(text.slice(0, 400))}`;
    if (want.h !== undefined)
      return digest(text) === want.h
        ? null
        : `want digest of ${want.n} chars, got ${text.length} chars: ${JSON.stringify(text.slice(0, 300))}`;
    got = `ok ${JSON.stringify(text.slice(0, 300))}`;
  } catch (e) {
    if (!(e instanceof PyException)) return `JS error ${(e as Error).stack}`;
    const msg = e.pyMessage;
    if (want.e !== undefined && e.pyType === want.e && (msg === want.m || (msg.length > SHORT && digest(msg) === want.m))) return null;
    // CPython's RecursionError wording depends on where the limit is hit (and changed in 3.12)
    if (want.e === "RecursionError" && e.pyType === want.e && msg.startsWith("maximum recursion depth exceeded")) return null;
    if (want.re !== undefined && msg === want.m) return null;
    got = `${e.pyType}: ${msg}`;
  }
  return `want ${JSON.stringify(want)} got ${got}`;
}

function newReport(): ReplayReport {
  return { sequences: 0, calls: 0, passed: 0, states: 0, statesPassed: 0, failures: [] };
}

function fail(report: ReplayReport, text: string): void {
  if (report.failures.length < 25) report.failures.push(text);
}

function parseCall(source: string): { name: string; args: PyValue[]; kwargs: PyDict } {
  const call = parseLiteralCall(source);
  if (!call) throw new Error(`not a call: ${source}`);
  return {
    name: call.name,
    args: call.args.map((a) => evalLiteral(a)),
    kwargs: new PyDict(call.keywords.map((k) => [k.arg, evalLiteral(k.value)] as const)),
  };
}

/** Replays every reference call of `cls` in the four categories, turn by turn, comparing results and states. */
export function replayGroundTruth(cls: ApiClass, version: BfclVersion = "v4"): ReplayReport {
  const report = newReport();
  for (const seq of loadSequences("ground-truth", version)) {
    if (!seq.classes.includes(cls)) continue;
    report.sequences++;
    const cat = categoryOf(seq.id);
    const inst = loaded(
      cls,
      questionEntry(version, cat, seq.id).get("initial_config") as PyDict,
      cat === "long_context",
      newProcess(version),
    );
    if (cls !== "MathAPI") {
      report.states++;
      if (stateDigest(inst) === seq.init![cls]) report.statesPassed++;
      else fail(report, `${seq.id} initial state differs`);
    }
    const gt = referenceTurns(version, cat, seq.id);
    seq.turns!.forEach((turn, ti) => {
      for (const want of turn.calls) {
        const call = parseCall(gt[want.at![0]][want.at![1]]);
        if (!inst.methods.has(call.name)) continue;
        report.calls++;
        const diff = check(inst, call.name, call.args, call.kwargs, want);
        if (diff === null) report.passed++;
        else fail(report, `${seq.id} turn ${ti} ${gt[want.at![0]][want.at![1]]}: ${diff}`);
      }
      if (cls !== "MathAPI") {
        report.states++;
        if (stateDigest(inst) === turn.state[cls]) report.statesPassed++;
        else fail(report, `${seq.id} state after turn ${ti} differs`);
      }
    });
  }
  return report;
}

/** Replays the stored model calls of `cls` (sampled by the generator), comparing results and states. */
export function replayModelCalls(cls: ApiClass, version: BfclVersion = "v4"): ReplayReport {
  const report = newReport();
  for (const seq of loadSequences("model-calls", version)) {
    if (!seq.classes.includes(cls)) continue;
    const inst = loaded(cls, questionEntry(version, seq.category!, seq.id).get("initial_config") as PyDict, false, newProcess(version));
    const steps = modelStepCalls(version, seq.run ?? "", seq.model!, seq.category!, seq.id);
    let touched = false;
    seq.turns!.forEach((turn, ti) => {
      for (const want of turn.calls) {
        const [t, s, c] = want.at!;
        const call = steps[t][s][c];
        if (!inst.methods.has(call.name)) continue;
        const kwargs = call.kwargs();
        const text = `${call.name}(${kwargs
          .entries()
          .map(([k, v]) => `${String(k)}=${pyRepr(v)}`)
          .join(",")})`;
        touched = true;
        report.calls++;
        const diff = check(inst, call.name, [], kwargs, want);
        if (diff === null) report.passed++;
        else fail(report, `${seq.run ?? ""}/${seq.model} ${seq.id} turn ${ti} ${text}: ${diff}`);
      }
      if (cls !== "MathAPI") {
        report.states++;
        if (stateDigest(inst) === turn.state[cls]) report.statesPassed++;
        else fail(report, `${seq.run ?? ""}/${seq.model} ${seq.id} state after turn ${ti} differs`);
      }
    });
    if (touched) report.sequences++;
  }
  return report;
}

/** Replays the hand-written error-path calls of `cls` on their real scenarios ("B:m" runs on a second instance of the same process, loaded from `idB`'s scenario when given; the process's shared default lists start with `seed`). */
export function replayErrorPaths(cls: ApiClass, family: "error-paths" | "fuzz" = "error-paths", version: BfclVersion = "v4"): ReplayReport {
  const report = newReport();
  for (const seq of loadSequences(family, version)) {
    if (!seq.classes.includes(cls)) continue;
    report.sequences++;
    const config = (id: string) => questionEntry(version, "base", id).get("initial_config") as PyDict;
    const process = newProcess(version, seq.seed);
    const [inst, instB] = [seq.id, seq.idB ?? seq.id].map((id) => loaded(cls, config(id), seq.longContext === true, process));
    for (const want of seq.calls!) {
      const label = `${seq.id}${seq.longContext ? " (long_context)" : ""} ${want.name}(${JSON.stringify(want.args)} ${JSON.stringify(want.kwargs)})`;
      if (want.name === "@repr") {
        report.calls++;
        const text = inst
          .publicState()
          .map(([k, v]) => `${k}=${pyRepr(v)}`)
          .join("; ");
        const ok = want.r !== undefined ? text === want.r : digest(text) === want.h;
        if (ok) report.passed++;
        else fail(report, `${label}: repr of the state differs: ${text.slice(0, 400)}`);
        continue;
      }
      const [target, name] = want.name!.startsWith("B:") ? [instB, want.name!.slice(2)] : [inst, want.name!];
      if (!target.methods.has(name)) continue;
      report.calls++;
      const diff = check(target, name, decodeTagged(want.args!) as PyValue[], decodeTagged(want.kwargs!) as PyDict, want);
      if (diff === null) report.passed++;
      else fail(report, `${label}: ${diff}`);
    }
    if (cls !== "MathAPI") {
      for (const [which, state] of [
        [inst, seq.state!],
        [instB, seq.stateB!],
      ] as const) {
        report.states++;
        if (stateDigest(which) === state[cls]) report.statesPassed++;
        else fail(report, `${seq.id} final state of instance ${which === inst ? "A" : "B"} differs`);
      }
    }
  }
  return report;
}

/**
 * Differences between a class's MethodSpecs and BFCL's Python signatures (method set,
 * parameter names in order, repr of each default); empty when they agree. The executor
 * builds CPython's binding messages from these, so they must be exact.
 */
export function signatureDifferences(cls: ApiClass, version: BfclVersion = "v4"): string[] {
  const want = (
    JSON.parse(readFileSync(join(sequenceVectorsDir(version), "signatures.json"), "utf8")) as Record<
      string,
      Record<string, { name: string; default?: string }[]>
    >
  )[cls];
  const inst = apiFactories(newProcess(version)).get(cls)!();
  const out: string[] = [];
  const have = [...inst.methods.keys()].sort();
  const expected = Object.keys(want).sort();
  if (JSON.stringify(have) !== JSON.stringify(expected)) out.push(`methods ${have.join(",")} != ${expected.join(",")}`);
  for (const name of expected) {
    const spec = inst.methods.get(name);
    if (!spec) continue;
    const got = spec.params.map((p) => ({ name: p.name, ...(p.default ? { default: pyRepr(p.default()) } : {}) }));
    if (JSON.stringify(got) !== JSON.stringify(want[name])) out.push(`${name}: ${JSON.stringify(got)} != ${JSON.stringify(want[name])}`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Case vectors of tools/gen-class-vectors.py (TicketAPI, TradingBot, TravelAPI, VehicleControlAPI)

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
    | { kind: "model"; run?: string; model: string; category: string; entry: string }
    | { kind: "inline"; configJson: string };
  longContext: boolean;
  initialState: string;
  turns: RecordedTurn[];
}

interface VectorDoc {
  class: string;
  version?: BfclVersion;
  today: [number, number, number];
  attributes: string[];
  cases: RecordedCase[];
}

function stateReprs(inst: ApiInstance): [string, string][] {
  return inst.publicState().map(([k, v]) => [k, pyRepr(v)]);
}

function caseVectorsDir(version: BfclVersion): string {
  return version === "v4" ? join(classesDir, "testdata") : join(classesDir, "testdata", version);
}

/** Replays `src/simulator/classes/testdata/[<version>/]<name>.vectors.json` against `make`; one outcome per recorded case. */
export function replayClassVectors(name: string, make: MakeInstance, version: BfclVersion = "v4"): CaseOutcome[] {
  const doc = JSON.parse(readFileSync(join(caseVectorsDir(version), `${name}.vectors.json`), "utf8")) as VectorDoc;
  const today: TodayClock = () => doc.today;
  return doc.cases.map((c) => replayCase(doc, c, make, today, version));
}

function replayCase(doc: VectorDoc, c: RecordedCase, make: MakeInstance, today: TodayClock, version: BfclVersion): CaseOutcome {
  const mismatches: string[] = [];
  const inst = make(newProcess(version), today);
  const belongs = (text: string) => {
    const call = parseLiteralCall(text);
    return call !== null && inst.methods.has(call.name);
  };
  let config: PyValue;
  let turnsCalls: string[][];
  const src = c.source;
  if (src.kind === "inline") {
    config = jsonLoadsOrThrow(src.configJson);
    turnsCalls = c.turns.map((t) => t.calls ?? []);
  } else {
    const cfg = (questionEntry(version, src.category, src.entry).get("initial_config") as PyDict).get(doc.class);
    config = pyDeepCopy(cfg ?? new PyDict());
    turnsCalls =
      src.kind === "gt"
        ? referenceTurns(version, src.category, src.entry).map((turn) => turn.filter(belongs))
        : decodedModelSteps(version, src.run ?? "", src.model, src.category, src.entry).map((turn) => turn.flat().filter(belongs));
  }
  inst.loadScenario(config as PyDict, c.longContext, c.longContext ? syntheticFiller() : undefined);
  const initial = stateReprs(inst);
  if (sha256(initial.map(([k, v]) => `${k}=${v}\n`).join("")) !== c.initialState) {
    mismatches.push(`${c.name}: loaded state differs: ${short(initial.map(([k, v]) => `${k}=${v}`).join(" | "))}`);
  }
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
      if (got !== turn.results[ci])
        mismatches.push(`${c.name} turn ${ti} call ${ci} ${short(text)}\n  expected ${short(turn.results[ci])}\n  got      ${short(got)}`);
    });
    for (const [k, v] of Object.entries(turn.state)) expected.set(k, v);
    const now = stateReprs(inst);
    const names = now.map(([k]) => k);
    if (names.join(",") !== doc.attributes.join(",")) mismatches.push(`${c.name} turn ${ti}: attributes ${names.join(",")}`);
    for (const [k, got] of now) {
      if (got !== expected.get(k))
        mismatches.push(`${c.name} turn ${ti} state ${k}\n  expected ${short(expected.get(k) ?? "(none)")}\n  got      ${short(got)}`);
    }
  });
  return { name: c.name, kind: src.kind, calls, mismatches };
}

/** Totals over the outcomes of one kind of case, with the mismatches (first 20) for a readable failure. */
export function summarize(
  outcomes: readonly CaseOutcome[],
  kind: CaseOutcome["kind"],
): { cases: number; calls: number; failedCases: number; mismatches: string[] } {
  const mine = outcomes.filter((o) => o.kind === kind);
  const failed = mine.filter((o) => o.mismatches.length > 0);
  return {
    cases: mine.length,
    calls: mine.reduce((n, o) => n + o.calls, 0),
    failedCases: failed.length,
    mismatches: failed.flatMap((o) => o.mismatches).slice(0, 20),
  };
}

/** What one class's case-vector replay must show (numbers from its stored vector file). */
export interface VectorReplay {
  /** The class as BFCL names it, e.g. `TicketAPI`. */
  readonly className: string;
  /** The vector file's stem under `src/simulator/classes/testdata/[<version>/]`. */
  readonly vectors: string;
  /** The BFCL release whose class the vectors were recorded on (v4 unless given). */
  readonly version?: BfclVersion;
  readonly make: MakeInstance;
  /** Ground-truth sequences recorded (one per reference trajectory that uses the class). */
  readonly gtCases: number;
  /** An entry named in the title (and, with `gtExampleCalls`, checked to have that many calls). */
  readonly gtExample: string;
  readonly gtExampleCalls?: number;
  /** What the inline error-path cases cover, for the title. */
  readonly inlineCovers: string;
  readonly minInlineCalls: number;
  /** Stored model sequences kept by the generator, of how many stored, and one of them as `run model id`. */
  readonly modelCases: number;
  readonly modelStored: number;
  readonly modelExample: readonly [run: string, model: string, id: string];
}

/**
 * The three replay tests each case-vector class has — every ground-truth call, the error
 * paths, the stored model sequences that add coverage — with no mismatch allowed.
 * Returns the outcomes for the file's own tests.
 */
export function describeVectorReplay(r: VectorReplay): CaseOutcome[] {
  const version = r.version ?? "v4";
  const outcomes = replayClassVectors(r.vectors, r.make, version);
  const [run, model, id] = r.modelExample;
  const models = version === "v3" ? "xLAM" : "gpt-oss";
  describe(`${r.className} (${version === "v3" ? "BFCL v3 final" : "BFCL v4"}) against BFCL's Python (tools/gen-class-vectors.py)`, () => {
    it(`replays every ground-truth call of base, miss_func, miss_param and long_context (e.g. ${r.gtExample})`, () => {
      const s = summarize(outcomes, "gt");
      expect(s.mismatches).toEqual([]);
      expect(s.cases).toBe(r.gtCases);
      if (r.gtExampleCalls !== undefined)
        expect(outcomes.some((o) => o.name === `gt ${r.gtExample}` && o.calls === r.gtExampleCalls)).toBe(true);
    });
    it(`matches on ${r.inlineCovers}`, () => {
      const s = summarize(outcomes, "inline");
      expect(s.mismatches).toEqual([]);
      expect(s.calls).toBeGreaterThan(r.minInlineCalls);
    });
    it(`matches on the ${models} sequences that add coverage (${r.modelCases} of the ${r.modelStored} stored ones; e.g. ${[run, model.replace(/^openai_/, ""), id].filter((x) => x !== "").join(" ")})`, () => {
      // the generator keeps a model sequence only when it shows something the ground-truth and error sequences did not:
      // a line arc of BFCL's class, an error text, an argument/result/state type shape, or a way its steps decode and parse
      const s = summarize(outcomes, "model");
      expect(s.mismatches).toEqual([]);
      expect(s.cases).toBe(r.modelCases);
      expect(outcomes.some((o) => o.name === ["model", run, model, id].filter((x) => x !== "").join(" ") && o.calls > 0)).toBe(true);
    });
  });
  return outcomes;
}

/**
 * The standard suites of a class with no hand-made case table: its signatures, reference
 * calls, the stored runs' calls, error paths and seeded random calls, against BFCL's Python
 * class of both versions (vectors of tools/class-vectors.py).
 */
export function describeClassAgainstBfcl(className: ApiClass): void {
  describe(`${className} against BFCL's Python class (vectors of tools/class-vectors.py)`, () => {
    it("declares every public method with Python's parameter names, order and defaults", () => {
      expect(signatureDifferences(className)).toEqual([]);
    });

    it(`replays every ${className} reference call of base, miss_func, miss_param and long_context (on the synthetic filler testdata/synthetic-long-context.py) from initial_config, turn by turn: same result strings, same public state`, () => {
      const r = replayGroundTruth(className);
      expect(r.failures).toEqual([]);
      expect(r.sequences).toBeGreaterThan(0);
      expect(r.passed).toBe(r.calls);
      expect(r.statesPassed).toBe(r.states);
    });

    it(`replays the sampled ${className} calls gpt-oss-120b/20b made in both stored runs: same result strings, same public state`, () => {
      const r = replayModelCalls(className);
      expect(r.failures).toEqual([]);
      expect(r.calls).toBeGreaterThan(0);
      expect(r.passed).toBe(r.calls);
      expect(r.statesPassed).toBe(r.states);
    });

    it("reproduces the hand-written error paths (wrong types, missing items, quirks) on real scenarios", () => {
      const r = replayErrorPaths(className);
      expect(r.failures).toEqual([]);
      expect(r.calls).toBeGreaterThan(0);
      expect(r.passed).toBe(r.calls);
      expect(r.statesPassed).toBe(r.states);
    });

    it("reproduces seeded random calls with awkward arguments (None, bools, huge ints, nan, lists, dicts, paths) on real base scenarios", () => {
      const r = replayErrorPaths(className, "fuzz");
      expect(r.failures).toEqual([]);
      expect(r.calls).toBeGreaterThanOrEqual(1000);
      expect(r.passed).toBe(r.calls);
      expect(r.statesPassed).toBe(r.states);
    });
  });
  describeV3ClassAgainstBfcl(className);
}

/** The same suites against BFCL v3 final's class, on the v3 data and the xLAM v3 run. */
function describeV3ClassAgainstBfcl(className: ApiClass): void {
  describe(`${className} of BFCL v3 final against its Python class (vectors of tools/class-vectors.py --version v3)`, () => {
    it("declares every public method with v3's parameter names, order and defaults", () => {
      expect(signatureDifferences(className, "v3")).toEqual([]);
    });

    it(`replays every ${className} reference call of the v3 data from initial_config, turn by turn: same result strings, same public state`, () => {
      const r = replayGroundTruth(className, "v3");
      expect(r.failures).toEqual([]);
      expect(r.sequences).toBeGreaterThan(0);
      expect(r.passed).toBe(r.calls);
      expect(r.statesPassed).toBe(r.states);
    });

    it(`replays the sampled ${className} calls of the xLAM v3 run (as BFCL logged their decoding): same result strings, same public state`, () => {
      const r = replayModelCalls(className, "v3");
      expect(r.failures).toEqual([]);
      expect(r.calls).toBeGreaterThan(0);
      expect(r.passed).toBe(r.calls);
      expect(r.statesPassed).toBe(r.states);
    });

    it("reproduces the hand-written error paths and the seeded random calls on v3 scenarios", () => {
      for (const family of ["error-paths", "fuzz"] as const) {
        const r = replayErrorPaths(className, family, "v3");
        expect(r.failures).toEqual([]);
        expect(r.calls).toBeGreaterThan(0);
        expect(r.passed).toBe(r.calls);
        expect(r.statesPassed).toBe(r.states);
      }
    });
  });
}
