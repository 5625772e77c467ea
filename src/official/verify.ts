/**
 * The verifier's logic (reproducibility statement): a file of expected numbers, each
 * with a tolerance and the rollouts it needs, is checked against the numbers twinscore
 * recomputes (`metrics.ts`, by the names of `metric-names.ts`). Every number gets one line: PASS, FAIL, or SKIP when its
 * rollouts (or score files) are absent — a SKIP is never a PASS. Pure: the CLI loads the
 * file and the trees.
 */
import { err, ok, problem, type Result } from "../messages/index.js";
import type { MetricValue, MetricsByName } from "./metric-names.js";
import { MAX_BOOTSTRAP_RESAMPLES } from "../stats/index.js";

/** One expected number. */
export interface ExpectedNumber {
  /** The metric key, e.g. `tables.C.gpt-5.4-FC.decision`. */
  readonly name: string;
  readonly value: number | string | readonly number[];
  /** Largest accepted |computed − expected| (per element for lists); ignored for labels. */
  readonly tolerance: number;
  /** Model directories whose rollouts the number needs (empty: the manifest alone). */
  readonly rollouts: readonly string[];
  /** True when the number also needs the official score files of those models. */
  readonly scores: boolean;
}

/** One run of an expected file: its models (listed order = rank-1 tie order) and numbers. */
export interface ExpectedRun {
  readonly name: string;
  /** When set, only `--results` / `--scores` directories with a path component equal to it belong to this run. */
  readonly match: string | null;
  readonly models: readonly { readonly name: string; readonly display: string | null }[];
  readonly bootstrap: { readonly resamples: number; readonly seed: number };
  readonly numbers: readonly ExpectedNumber[];
}

/** A whole expected file. */
export interface ExpectedFile {
  readonly description: string;
  readonly runs: readonly ExpectedRun[];
}

/** The verdict on one number. */
export type CheckStatus = "PASS" | "FAIL" | "SKIP";

/** One line of the verifier's output. */
export interface CheckLine {
  readonly run: string;
  readonly name: string;
  readonly status: CheckStatus;
  readonly expected: ExpectedNumber["value"];
  readonly computed: MetricValue | null;
  readonly tolerance: number;
  /** Why a SKIP or a FAIL (empty for a PASS). */
  readonly note: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isValue(v: unknown): v is ExpectedNumber["value"] {
  return typeof v === "number" || typeof v === "string" || (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "number"));
}

/** Parse and validate an expected file; problems name the file and the offending entry. */
export function parseExpectedFile(text: string, file: string): Result<ExpectedFile> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return err(problem("json-malformed", `expected file is not JSON (${e instanceof Error ? e.message : String(e)})`, { file }));
  }
  if (!isRecord(data) || !Array.isArray(data.runs))
    return err(problem("expected-malformed", "expected file needs a `runs` list", { file }));
  const runs: ExpectedRun[] = [];
  for (const [i, r] of data.runs.entries()) {
    const run = expectedRun(r, `runs[${i}]`);
    if (typeof run === "string") return err(problem("expected-malformed", run, { file }));
    runs.push(run);
  }
  return ok({ description: typeof data.description === "string" ? data.description : "", runs });
}

/** One run of an expected file, or what is wrong with it (`where` names it: `runs[0]`). */
function expectedRun(r: unknown, where: string): ExpectedRun | string {
  if (!isRecord(r) || typeof r.name !== "string" || !Array.isArray(r.models) || !Array.isArray(r.numbers))
    return `${where} needs name, models and numbers`;
  const models: { name: string; display: string | null }[] = [];
  for (const m of r.models) {
    if (!isRecord(m) || typeof m.name !== "string") return `${where}.models: each model needs a name`;
    models.push({ name: m.name, display: typeof m.display === "string" ? m.display : null });
  }
  const bootstrap = expectedBootstrap(isRecord(r.bootstrap) ? r.bootstrap : {}, where);
  if (typeof bootstrap === "string") return bootstrap;
  const numbers = expectedNumbers(r.numbers, where);
  if (typeof numbers === "string") return numbers;
  return { name: r.name, match: typeof r.match === "string" ? r.match : null, models, bootstrap, numbers };
}

/** A run's bootstrap settings (the paper's where absent), or what is wrong with them. */
function expectedBootstrap(boot: Record<string, unknown>, where: string): ExpectedRun["bootstrap"] | string {
  const resamples = typeof boot.resamples === "number" ? boot.resamples : 10000;
  if (!Number.isInteger(resamples) || resamples < 0 || resamples > MAX_BOOTSTRAP_RESAMPLES)
    return `${where}.bootstrap.resamples must be an integer from 0 to ${MAX_BOOTSTRAP_RESAMPLES}, got ${resamples}`;
  const seed = boot.seed === undefined ? 20260612 : boot.seed;
  if (typeof seed !== "number" || !Number.isSafeInteger(seed) || seed < 0)
    return `${where}.bootstrap.seed must be an integer >= 0, got ${JSON.stringify(seed)}`;
  return { resamples, seed };
}

/** A run's numbers, or what is wrong with one of them. */
function expectedNumbers(given: readonly unknown[], where: string): ExpectedNumber[] | string {
  const numbers: ExpectedNumber[] = [];
  const seen = new Set<string>();
  for (const [j, n] of given.entries()) {
    if (!isRecord(n) || typeof n.name !== "string" || n.name === "" || !isValue(n.value))
      return `${where}.numbers[${j}] needs a name and a number, string or list of numbers as value`;
    if (seen.has(n.name)) return `${where}: ${n.name} is listed twice`;
    seen.add(n.name);
    // a tolerance given wrong would silently become 0: every near miss a FAIL that says nothing of why
    const tolerance = n.tolerance === undefined ? 0 : n.tolerance;
    if (typeof tolerance !== "number" || !Number.isFinite(tolerance) || tolerance < 0)
      return `${where}: ${n.name}: tolerance must be a number >= 0, got ${JSON.stringify(tolerance)}`;
    const rollouts = Array.isArray(n.rollouts) ? n.rollouts.filter((x): x is string => typeof x === "string") : [];
    numbers.push({ name: n.name, value: n.value, tolerance, rollouts, scores: n.scores === true });
  }
  return numbers;
}

/** What is available for a run: the models whose rollouts were scored, and those with score files. */
export interface Availability {
  readonly rollouts: ReadonlySet<string>;
  readonly scores: ReadonlySet<string>;
}

const SLACK = 1e-9;

function within(computed: number, expected: number, tolerance: number): boolean {
  return Number.isFinite(computed) && Math.abs(computed - expected) <= tolerance + SLACK;
}

/** Compare one computed value with one expected value. */
export function matches(computed: MetricValue, expected: ExpectedNumber["value"], tolerance: number): boolean {
  if (typeof expected === "string") return computed === expected;
  if (typeof expected === "number") return typeof computed === "number" && within(computed, expected, tolerance);
  return (
    Array.isArray(computed) &&
    computed.length === expected.length &&
    expected.every((e, i) => within((computed as readonly number[])[i], e, tolerance))
  );
}

/** Check every number of a run against the computed metrics. */
export function checkRun(run: ExpectedRun, computed: MetricsByName, available: Availability): CheckLine[] {
  return run.numbers.map((n) => {
    const base = { run: run.name, name: n.name, expected: n.value, tolerance: n.tolerance };
    const missing = n.rollouts.filter((m) => !available.rollouts.has(m));
    if (missing.length > 0) return { ...base, status: "SKIP", computed: null, note: `rollouts absent: ${missing.join(", ")}` };
    if (n.scores) {
      const noScores = n.rollouts.filter((m) => !available.scores.has(m));
      if (noScores.length > 0) return { ...base, status: "SKIP", computed: null, note: `score files absent: ${noScores.join(", ")}` };
    }
    const value = computed.get(n.name);
    if (value === undefined) return { ...base, status: "FAIL", computed: null, note: "not computed" };
    const pass = matches(value, n.value, n.tolerance);
    return { ...base, status: pass ? "PASS" : "FAIL", computed: value, note: pass ? "" : "outside tolerance" };
  });
}

/** `N PASS, N FAIL, N SKIP`. */
export function summaryLine(lines: readonly CheckLine[]): string {
  const count = (s: CheckStatus) => lines.filter((l) => l.status === s).length;
  return `${count("PASS")} PASS, ${count("FAIL")} FAIL, ${count("SKIP")} SKIP`;
}

function show(v: MetricValue | null, digits: number): string {
  if (v === null) return "—";
  if (typeof v === "string") return v;
  const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(digits));
  return typeof v === "number" ? fmt(v) : v.map(fmt).join(",");
}

function digitsFor(expected: ExpectedNumber["value"]): number {
  const sample = typeof expected === "number" ? [expected] : Array.isArray(expected) ? expected : [];
  let d = 1;
  for (const x of sample) {
    const s = String(x);
    const dot = s.indexOf(".");
    if (dot >= 0) d = Math.max(d, s.length - dot - 1);
  }
  return Math.min(d + 2, 6);
}

/** One line for a check: `PASS run: name expected=… computed=… (±tol)` with the note for FAIL/SKIP. */
export function renderCheckLine(line: CheckLine): string {
  const exp = Array.isArray(line.expected) ? line.expected.join(",") : String(line.expected);
  const got = show(line.computed, digitsFor(line.expected));
  const tol = typeof line.expected === "string" ? "" : ` ±${line.tolerance}`;
  const tail = line.status === "SKIP" ? ` (${line.note})` : line.status === "FAIL" ? ` computed=${got} (${line.note})` : ` computed=${got}`;
  return `${line.status} ${line.run}: ${line.name} expected=${exp}${tol}${tail}`;
}
