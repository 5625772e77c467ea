/**
 * Replays the vectors of `tools/class-vectors.py` (BFCL's own Python classes run on the
 * real data) against the TypeScript classes. The vectors hold only outcomes and state
 * digests; the call arguments are re-read from the same shared files (ground-truth call
 * strings through the project's Python parser, model FC arguments through Python-style
 * `json.loads`). long_context cases were recorded on the synthetic filler
 * `src/simulator/classes/testdata/synthetic-long-context.py` (our own made-up values with
 * BFCL's constant names and shapes, shared with the other four classes' vectors), parsed
 * here with the project's `parseLongContextModule`, so no BFCL checkout is needed.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ApiClass } from "../catalog/types.js";
import type { ApiInstance, LongContextData } from "../simulator/types.js";
import type { PyValue } from "../python/value.js";
import { pyDeepCopy } from "../python/copy.js";
import { PyDict, PySet, PyTuple } from "../python/containers.js";
import { PyException } from "../python/exception.js";
import { jsonDumps, jsonLoadsOrThrow } from "../python/json.js";
import { floatRepr, pyRepr, pyStr } from "../python/repr.js";
import { parseExpression } from "../python/parse.js";
import { evalLiteral } from "../python/literal-eval.js";
import { decodeTagged, type TaggedValue } from "../python/testing/test-vectors.js";
import { PyDirectory, PyFile } from "../simulator/classes/gorilla-file-system.js";
import { apiFactories, PythonProcess } from "../simulator/classes/index.js";
import { parseLongContextModule } from "../simulator/long-context.js";
import { renderProblemLine } from "../messages/index.js";
import { projectRoot, sharedPath } from "./shared.js";

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

function readJsonl(path: string): unknown[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

function loadVectors(name: string): SequenceVector[] {
  return JSON.parse(readFileSync(join(projectRoot, "src", "simulator", "classes", "vectors", `${name}.json`), "utf8")) as SequenceVector[];
}

/** The committed synthetic long_context module the vectors were recorded with (tools/class-vectors.py --filler). */
export const SYNTHETIC_FILLER_PATH = join(projectRoot, "src", "simulator", "classes", "testdata", "synthetic-long-context.py");

let fillerCache: LongContextData | undefined;

/** The synthetic long_context constants, parsed with the project's own long_context reader (the one real BFCL modules go through). */
export function longContextFiller(): LongContextData {
  if (fillerCache) return fillerCache;
  const parsed = parseLongContextModule(readFileSync(SYNTHETIC_FILLER_PATH, "utf8"), SYNTHETIC_FILLER_PATH);
  if (!parsed.ok) throw new Error(parsed.problems.map((p) => renderProblemLine(p)).join("\n"));
  fillerCache = parsed.value;
  return fillerCache;
}

/** sha256 prefix, as the generator writes it. */
function digest(s: string): string {
  return createHash("sha256").update(s, "utf8").digest("hex").slice(0, 20);
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

/** BFCL's executor rendering of a return value: str as is, dict via json.dumps else str(), anything else str(). */
export function renderResult(v: PyValue): string {
  if (typeof v === "string") return v;
  if (v instanceof PyDict) {
    try {
      return jsonDumps(v);
    } catch (e) {
      if (e instanceof PyException) return pyStr(v);
      throw e;
    }
  }
  return pyStr(v);
}

/** Minimal Python binding for the tests (the executor has the real one): positional, then keywords, then defaults. */
function bind(inst: ApiInstance, name: string, args: PyValue[], kwargs: PyDict): PyValue[] | string {
  const spec = inst.methods.get(name)!;
  if (args.length > spec.params.length) return "too many positional arguments";
  const bound: (PyValue | undefined)[] = spec.params.map((_, i) => args[i]);
  for (const [k, v] of kwargs.entries()) {
    const i = spec.params.findIndex((p) => p.name === k);
    if (i < 0) return `unexpected keyword argument '${pyStr(k)}'`;
    if (bound[i] !== undefined) return `multiple values for argument '${pyStr(k)}'`;
    bound[i] = v;
  }
  for (let i = 0; i < bound.length; i++) {
    if (bound[i] === undefined) {
      const d = spec.params[i].default;
      if (!d) return `missing a required argument: '${spec.params[i].name}'`;
      bound[i] = d();
    }
  }
  return bound as PyValue[];
}

/** Run one call and describe how it differs from the vector, or null when it matches. */
function check(inst: ApiInstance, name: string, args: PyValue[], kwargs: PyDict, want: CallVector): string | null {
  const bound = bind(inst, name, args, kwargs);
  if (typeof bound === "string") return want.bind !== undefined ? null : `TS binding failed (${bound}) where Python ran the call`;
  if (want.bind !== undefined) return `Python binding failed (${want.bind}) where TS bound the call`;
  let got: string;
  try {
    const text = renderResult(inst.methods.get(name)!.invoke(bound, inst));
    if (want.r !== undefined) return text === want.r ? null : `want ${JSON.stringify(want.r)} got ${JSON.stringify(text.slice(0, 400))}`;
    if (want.h !== undefined) return digest(text) === want.h ? null : `want digest of ${want.n} chars, got ${text.length} chars: ${JSON.stringify(text.slice(0, 300))}`;
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

function ownerOf(insts: Map<ApiClass, ApiInstance>, name: string): ApiInstance | undefined {
  for (const inst of insts.values()) if (inst.methods.has(name)) return inst;
  return undefined;
}

function newReport(): ReplayReport {
  return { sequences: 0, calls: 0, passed: 0, states: 0, statesPassed: 0, failures: [] };
}

function fail(report: ReplayReport, text: string): void {
  if (report.failures.length < 25) report.failures.push(text);
}

function instancesFor(cls: ApiClass, config: PyDict, longContext: boolean): Map<ApiClass, ApiInstance> {
  const inst = apiFactories(new PythonProcess()).get(cls)!();
  if (cls !== "MathAPI") {
    const c = config.get(cls);
    // BFCL's executor hands `_load_scenario` a deep copy; the classes keep what they are given
    inst.loadScenario(c instanceof PyDict ? pyDeepCopy(c) : new PyDict(), longContext, longContext ? longContextFiller() : undefined);
  }
  return new Map([[cls, inst]]);
}

const entryCache = new Map<string, Map<string, PyDict>>();

/** Questions of one category by id, parsed with Python JSON semantics (int vs float). */
function entries(category: string): Map<string, PyDict> {
  let m = entryCache.get(category);
  if (!m) {
    m = new Map();
    const text = readFileSync(sharedPath("bfcl-v4", `BFCL_v4_multi_turn_${category}.json`), "utf8");
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      const e = jsonLoadsOrThrow(line) as PyDict;
      m.set(e.get("id") as string, e);
    }
    entryCache.set(category, m);
  }
  return m;
}

function categoryOf(id: string): string {
  return id.replace(/^multi_turn_/, "").replace(/_\d+$/, "");
}

function parseCall(source: string): { name: string; args: PyValue[]; kwargs: PyDict } {
  const parsed = parseExpression(source);
  if (!parsed.ok || parsed.expr.kind !== "call" || parsed.expr.func.kind !== "name") throw new Error(`not a call: ${source}`);
  const kwargs = new PyDict();
  for (const k of parsed.expr.keywords) kwargs.set(k.arg!, evalLiteral(k.value));
  return { name: parsed.expr.func.id, args: parsed.expr.args.map((a) => evalLiteral(a)), kwargs };
}

/** Replays every reference call of `cls` in the four categories, turn by turn, comparing results and states. */
export function replayGroundTruth(cls: ApiClass): ReplayReport {
  const report = newReport();
  const answers = new Map<string, string[][]>();
  for (const cat of ["base", "miss_func", "miss_param", "long_context"]) {
    for (const a of readJsonl(sharedPath("bfcl-v4", "possible_answer", `BFCL_v4_multi_turn_${cat}.json`)) as { id: string; ground_truth: string[][] }[]) {
      answers.set(a.id, a.ground_truth);
    }
  }
  for (const seq of loadVectors("ground-truth")) {
    if (!seq.classes.includes(cls)) continue;
    report.sequences++;
    const cat = categoryOf(seq.id);
    const entry = entries(cat).get(seq.id)!;
    const insts = instancesFor(cls, entry.get("initial_config") as PyDict, cat === "long_context");
    const inst = insts.get(cls)!;
    if (cls !== "MathAPI") {
      report.states++;
      if (stateDigest(inst) === seq.init![cls]) report.statesPassed++;
      else fail(report, `${seq.id} initial state differs`);
    }
    const gt = answers.get(seq.id)!;
    seq.turns!.forEach((turn, ti) => {
      for (const want of turn.calls) {
        const call = parseCall(gt[want.at![0]][want.at![1]]);
        if (ownerOf(insts, call.name) !== inst) continue;
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

const resultCache = new Map<string, Map<string, unknown[][]>>();

function modelResults(run: string, model: string, category: string): Map<string, unknown[][]> {
  const key = `${run}/${model}/${category}`;
  let m = resultCache.get(key);
  if (!m) {
    m = new Map();
    for (const line of readJsonl(sharedPath("rollouts", "gpt-oss", run, "result", model, "multi_turn", `BFCL_v4_multi_turn_${category}_result.json`)) as {
      id: string;
      result: unknown;
    }[]) {
      if (Array.isArray(line.result)) m.set(line.id, line.result as unknown[][]);
    }
    resultCache.set(key, m);
  }
  return m;
}

/** Replays the stored gpt-oss FC calls of `cls` (sampled by the generator), comparing results and states. */
export function replayModelCalls(cls: ApiClass): ReplayReport {
  const report = newReport();
  for (const seq of loadVectors("model-calls")) {
    if (!seq.classes.includes(cls)) continue;
    const entry = entries(seq.category!).get(seq.id)!;
    const insts = instancesFor(cls, entry.get("initial_config") as PyDict, false);
    const inst = insts.get(cls)!;
    const result = modelResults(seq.run!, seq.model!, seq.category!).get(seq.id)!;
    let touched = false;
    seq.turns!.forEach((turn, ti) => {
      for (const want of turn.calls) {
        const [t, s, c] = want.at!;
        const item = (result[t][s] as Record<string, string>[])[c];
        const [name, argText] = Object.entries(item)[0];
        if (ownerOf(insts, name) !== inst) continue;
        touched = true;
        report.calls++;
        const kwargs = jsonLoadsOrThrow(argText) as PyDict;
        const diff = check(inst, name, [], kwargs, want);
        if (diff === null) report.passed++;
        else fail(report, `${seq.run}/${seq.model} ${seq.id} turn ${ti} ${name}(${argText}): ${diff}`);
      }
      if (cls !== "MathAPI") {
        report.states++;
        if (stateDigest(inst) === turn.state[cls]) report.statesPassed++;
        else fail(report, `${seq.run}/${seq.model} ${seq.id} state after turn ${ti} differs`);
      }
    });
    if (touched) report.sequences++;
  }
  return report;
}

/** Replays the hand-written error-path calls of `cls` on their real scenarios ("B:m" runs on a second instance of the same process). */
export function replayErrorPaths(cls: ApiClass, family: "error-paths" | "fuzz" = "error-paths"): ReplayReport {
  const report = newReport();
  for (const seq of loadVectors(family)) {
    if (!seq.classes.includes(cls)) continue;
    report.sequences++;
    const entry = entries("base").get(seq.id)!;
    const config = entry.get("initial_config") as PyDict;
    const process = new PythonProcess();
    const [inst, instB] = [0, 1].map(() => {
      const made = apiFactories(process).get(cls)!();
      if (cls !== "MathAPI") {
        const c = config.get(cls);
        made.loadScenario(c instanceof PyDict ? pyDeepCopy(c) : new PyDict(), seq.longContext === true, seq.longContext ? longContextFiller() : undefined);
      }
      return made;
    });
    for (const want of seq.calls!) {
      const label = `${seq.id}${seq.longContext ? " (long_context)" : ""} ${want.name}(${JSON.stringify(want.args)} ${JSON.stringify(want.kwargs)})`;
      if (want.name === "@repr") {
        report.calls++;
        const text = inst.publicState().map(([k, v]) => `${k}=${pyRepr(v)}`).join("; ");
        const ok = want.r !== undefined ? text === want.r : digest(text) === want.h;
        if (ok) report.passed++;
        else fail(report, `${label}: repr of the state differs: ${text.slice(0, 400)}`);
        continue;
      }
      const [target, name] = want.name!.startsWith("B:") ? [instB, want.name!.slice(2)] : [inst, want.name!];
      if (!target.methods.has(name)) continue;
      report.calls++;
      const args = decodeTagged(want.args!) as PyValue[];
      const kwargs = decodeTagged(want.kwargs!) as PyDict;
      const diff = check(target, name, args, kwargs, want);
      if (diff === null) report.passed++;
      else fail(report, `${label}: ${diff}`);
    }
    if (cls !== "MathAPI") {
      for (const [which, state] of [[inst, seq.state!], [instB, seq.stateB!]] as const) {
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
export function signatureDifferences(cls: ApiClass): string[] {
  const want = (JSON.parse(readFileSync(join(projectRoot, "src", "simulator", "classes", "vectors", "signatures.json"), "utf8")) as Record<
    string,
    Record<string, { name: string; default?: string }[]>
  >)[cls];
  const inst = apiFactories(new PythonProcess()).get(cls)!();
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
