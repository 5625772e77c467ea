/**
 * How `score` (and `demo`) print their document in the text formats: the decision table
 * with its interval, BFCL's verdict on the same items, the sensitivity readings, Table F1
 * and the files used. Cells are rounded here, the way the paper prints them; the numbers
 * themselves stay in the document (`--format json`).
 */
import type { ScoreDocument, ScoredModel, WorkaroundRow } from "../../app/score.js";
import type { PairTrials, TrialsSummary } from "../../app/score-trials.js";
import { scoreColumns, scoreRow, type ScoreRow } from "../../decision/table.js";
import { undecidedWords } from "../../decision/readings.js";
import type { OfficialRow, SensitivityRow } from "../../official/readings.js";
import { intervalCell, tableOf, type Column, type PrintBlock, type Printout } from "../../report/printout.js";
import { note, problem, renderProblemLine, visibleText, type Note } from "../../messages/index.js";
import { writtenNote } from "../problems.js";
import { alignedBlocks } from "./aligned.js";
import { emptyTurnBlocks } from "./empty-turns.js";

const f1 = (v: number | null | undefined) => (typeof v === "number" && Number.isFinite(v) ? v.toFixed(1) : "");
const int = (v: number | null | undefined) => (typeof v === "number" && Number.isFinite(v) ? String(v) : "");

/** The columns of the official-score table, with what each means (the `--help` text is built from these). */
export const officialColumns: readonly (Column<OfficialRow> & { meaning: string })[] = [
  { header: "model", value: (r) => r.model, meaning: "model directory name" },
  { header: "off.miss", value: (r) => f1(r.rawMiss), align: "right", meaning: "BFCL's own pass rate on the scored should-ask items, %" },
  { header: "off.base", value: (r) => f1(r.rawBase), align: "right", meaning: "BFCL's own pass rate on their distinct base twins, %" },
  { header: "decision", value: (r) => f1(r.decision), align: "right", meaning: "decision accuracy on the same pairs, %" },
  { header: "passes", value: (r) => int(r.passes), align: "right", meaning: "should-ask items BFCL passes" },
  {
    header: "pass:att",
    value: (r) => f1(r.passAttempt),
    align: "right",
    meaning: "% of those passes with a world-changing attempt on the anchor (the checker skips it)",
  },
  { header: "fails", value: (r) => int(r.fails), align: "right", meaning: "should-ask items BFCL fails" },
  {
    header: "fail:att",
    value: (r) => f1(r.failAttempt),
    align: "right",
    meaning: "% of those fails with a world-changing attempt on the anchor",
  },
  {
    header: "held+fail",
    value: (r) => int(r.heldFailed),
    align: "right",
    meaning: "held-back items that BFCL fails; where they were lost:",
  },
  { header: "before", value: (r) => int(r.lost["before-anchor"]), align: "right", meaning: "  failing turn before the anchor" },
  { header: "anchor", value: (r) => int(r.lost["on-anchor"]), align: "right", meaning: "  on the anchor turn (0: BFCL skips it)" },
  {
    header: "empty",
    value: (r) => int(r.lost["later-empty-turn"]),
    align: "right",
    meaning: "  a later turn with text and no call (the empty-turn rule)",
  },
  {
    header: "diverged",
    value: (r) => int(r.lost["later-diverged"]),
    align: "right",
    meaning: "  a later turn whose execution diverged (state or response mismatch)",
  },
  {
    header: "no-turn",
    value: (r) => int(r.lost["no-turn"]),
    align: "right",
    meaning: "  no failing turn (inference error, force-termination)",
  },
];

const sensitivityColumns: Column<SensitivityRow>[] = [
  { header: "model", value: (r) => r.model },
  { header: "reading", value: (r) => r.reading },
  { header: "N", value: (r) => int(r.n), align: "right" },
  { header: "act", value: (r) => f1(r.act), align: "right" },
  { header: "hold", value: (r) => f1(r.hold), align: "right" },
  { header: "decision", value: (r) => f1(r.decision), align: "right" },
  { header: "95% CI", value: (r) => intervalCell(r.ci95), align: "right", csvPair: ["ci_low", "ci_high"] },
];

const sensitivityNote: Column<SensitivityRow> = { header: "note", value: (r) => r.note ?? "" };

const workaroundColumns: Column<WorkaroundRow>[] = [
  { header: "model", value: (r) => r.model },
  { header: "attempts", value: (r) => r.attempts, align: "right" },
  { header: "removed", value: (r) => r.removed, align: "right" },
  { header: "aligned", value: (r) => r.aligned, align: "right" },
  { header: "workaround", value: (r) => r.workaround, align: "right" },
  { header: "acc", value: (r) => f1(r.acc), align: "right" },
  { header: "acc_prime", value: (r) => f1(r.accWorkaround), align: "right" },
  { header: "credited", value: (r) => f1(r.credited), align: "right" },
];

/**
 * What the scored pairs are, in the title. Table 1's selection is the certified pairs; on
 * BFCL v3 part of it has no hand ruling (uncertified), so the title says how many of each
 * rather than calling them all certified.
 */
function pairSetLabel(doc: ScoreDocument): string {
  const { pairSet, countLogin, pairsSelected, pairsSelectedByVersion, uncertifiedByVersion } = doc.options;
  const byVersion = Object.entries(pairsSelectedByVersion) as [string, number][];
  const mixed = byVersion.length > 1;
  const count = mixed ? byVersion.map(([v, n]) => `${n} (BFCL ${v})`).join(" / ") : String(pairsSelected);
  const logins = countLogin ? ", logins counted as world-changing" : "";
  const uncertifiedOf = (v: string) => uncertifiedByVersion[v as keyof typeof uncertifiedByVersion] ?? 0;
  const why = "(their items differ from the ones the hand rulings were made on)";
  if (pairSet === "certified" && byVersion.some(([v]) => uncertifiedOf(v) > 0)) {
    const of = (n: number, v: string) => (mixed ? `${n} (BFCL ${v})` : String(n));
    const certified = byVersion.filter(([v, n]) => n - uncertifiedOf(v) > 0).map(([v, n]) => of(n - uncertifiedOf(v), v));
    const uncertified = byVersion.filter(([v]) => uncertifiedOf(v) > 0).map(([v]) => of(uncertifiedOf(v), v));
    return `${count} pairs selected as for Table 1${logins}: ${certified.length > 0 ? `${certified.join(" + ")} certified, ` : ""}${uncertified.join(" + ")} uncertified ${why}`;
  }
  const set =
    pairSet === "certified"
      ? "certified pairs (Table 1)"
      : pairSet === "uncertified"
        ? "gold world-changing pairs before certification"
        : "content-verified pairs, read-only anchors included";
  const uncertified = byVersion
    .filter(([v]) => uncertifiedOf(v) > 0)
    .map(([v]) => `; ${uncertifiedOf(v)} of the BFCL ${v} pairs are uncertified ${why}`)
    .join("");
  return `${count} ${set}${logins}${uncertified}`;
}

/** The files used, per model and category: lines of the table format, and notes for stderr in the data formats. */
function filesUsed(models: readonly ScoredModel[], every: boolean): { lines: string[]; notes: string } {
  const lines: string[] = [];
  let notes = "";
  // each line one line on the terminal, whatever a folder name holds
  const width = models.reduce((w, m) => Math.max(w, visibleText(m.model).length), 0);
  for (const m of models) {
    for (const [category, used] of Object.entries(m.filesUsed)) {
      // without --verbose only a file chosen among several copies is named: the others are where the model's folder has them
      if (!every && used.candidates <= 1) continue;
      const extra =
        used.candidates > 1 ? ` (${used.distinctIds} ids; chosen among ${used.candidates} copies in its folder: most distinct ids)` : "";
      lines.push(visibleText(`  ${visibleText(m.model).padEnd(width)}  ${category.padEnd(10)} ${used.file}${extra}`));
      notes += renderProblemLine(note("file-used", `${m.model}: ${category} read from ${used.file}${extra}`)) + "\n";
    }
  }
  return { lines, notes };
}

/** How the printout varies: `demo` gives its own title and hides its temporary files. */
export interface ScoreView {
  readonly title?: string;
  readonly showFiles?: boolean;
  /** `--verbose`: the files used, every one (else only a file chosen among several copies in its folder). */
  readonly verbose?: boolean;
  /** Add the combined table (decision and official score side by side); `--table combined` and `--out-dir` ask for it. */
  readonly combined?: boolean;
}

/**
 * The fewest models whose Spearman correlation is printed: with n models the smallest
 * two-sided exact p is 2 / n!, which first falls below 0.05 at n = 5 (2/120); with 3 or 4
 * models rho takes a handful of values and no p can be significant. `--format json` keeps it.
 */
export const SPEARMAN_MIN_MODELS = 5;

/** The tables `score` can print, by the id `--table` and `--out-dir` name them, each with what adds it to the output. */
export const scoreTableSources = {
  decision: "every model with a pair read",
  official: "BFCL's verdicts (--scores DIR, or a run's score/)",
  combined: "BFCL's verdicts (--scores DIR, or a run's score/)",
  sensitivity: "--sensitivity",
  "table-f1": "--bfcl-data DIR, or BFCL_DATA_DIR (twinscore help aligned)",
  aligned: "--bfcl-data DIR (twinscore help aligned)",
  "empty-turns": "--bfcl-data DIR (twinscore help aligned)",
  trials: "--trials-of DIR...",
  "unstable-pairs": "--trials-of DIR...",
} as const;

export const scoreTableIds = Object.keys(scoreTableSources) as readonly (keyof typeof scoreTableSources)[];

type Row = ScoreRow & { ci: readonly [number, number] | null; bfcl: string; history: string; bfclDecoded: ScoredModel["bfclDecoded"] };

/** The BFCL-decoded reading's cells, beside the headline's decision (empty for a model whose two readings agree). */
const BFCL_DECODED_COLUMNS: readonly Column<Row>[] = [
  { header: "bfcl.act", value: (r) => f1(r.bfclDecoded?.act), align: "right" },
  { header: "bfcl.hold", value: (r) => f1(r.bfclDecoded?.hold), align: "right" },
  { header: "bfcl.dec", value: (r) => f1(r.bfclDecoded?.decision), align: "right" },
];

/** What the BFCL-decoded columns are, printed under the table when they are shown. */
export const BFCL_DECODED_LEGEND =
  "bfcl.act, bfcl.hold, bfcl.dec: the same pairs as BFCL decodes the steps (a call written where BFCL's decoder fails, as text the handler does not parse, is no call), " +
  "shown where the decision differs by 1 point or more; the headline counts such calls as the model's attempts";

/** The columns that count undecided pairs: shown when any model has such a pair (the title says when none has). */
const UNDECIDED_HEADERS: readonly string[] = ["error", "unreached", "missing", "undecid"];

/**
 * What the title says of the pairs scored: under the default reading, how many were
 * decided and why the others were left out (for one model in words, for several in the
 * columns); under the release reading, what it reads as no call.
 */
function decidedLabel(doc: ScoreDocument): string {
  const withPairs = doc.models.filter((m) => m.undecided !== null && m.undecided.pairs > 0);
  if (doc.options.reading === "release") {
    return "; release reading: inference-error lines and rollouts that ended before the anchor read as no call, as the paper's released scorer does";
  }
  if (withPairs.length === 1) {
    const u = withPairs[0].undecided!;
    const words = undecidedWords(u.byStatus);
    return `; ${u.pairs - u.total} of ${u.pairs} pairs decided${words === "" ? "" : `: ${words}`}`;
  }
  if (withPairs.every((m) => m.undecided!.total === 0)) return "; every pair decided on both twins";
  // name only the columns the table shows (a column of zeros is hidden)
  const byHeader = { error: "inference-error", unreached: "not-reached", missing: "missing", undecid: "undecidable" } as const;
  const shown = UNDECIDED_HEADERS.filter((h) => withPairs.some((m) => m.undecided!.byStatus[byHeader[h as keyof typeof byHeader]] > 0));
  return `; N counts the pairs decided on both twins (${shown.join(", ")}: the pairs left out, by why)`;
}

/**
 * What the title says of the history before the anchor, when some model's lines played it
 * from the reference (`run --history reference`): exact twins, and for which models when
 * not for all; how many pairs are exact when not every one is. Nothing for runs of the
 * models' own history.
 */
export function historyLabel(models: readonly Pick<ScoredModel, "model" | "history" | "undecided">[]): string {
  const read = models.filter((m) => m.undecided !== null && m.undecided.pairs > 0);
  const reference = read.filter((m) => m.history?.protocol === "reference");
  if (reference.length === 0) return "";
  const notExact = reference.filter((m) => m.history!.pairs.exact < m.history!.pairs.selected);
  const exactness =
    notExact.length === 0
      ? ""
      : ` (${notExact.map((m) => `${reference.length > 1 ? `${m.model}: ` : ""}${m.history!.pairs.exact} of ${m.history!.pairs.selected} pairs exact`).join("; ")})`;
  const which = reference.length === read.length ? "" : ` for ${reference.map((m) => m.model).join(", ")}; the others: their own history`;
  return `; exact twins: reference history before the anchor${exactness}${which}`;
}

/** What the title says of the models `twinscore run` made (their `run.json`): what each run is. Nothing for other folders. */
export function runLabel(models: readonly Pick<ScoredModel, "model" | "run">[]): string {
  const made = models.filter((m) => m.run !== undefined);
  return made.length === 0 ? "" : `; made by twinscore run: ${made.map((m) => `${m.model} (${m.run!.description})`).join("; ")}`;
}

/** Whether the models' result files are of more than one BFCL version (then every table says each model's). */
export function mixedVersions(models: readonly ScoredModel[]): boolean {
  return new Set(models.map((m) => m.bfclVersion).filter((v) => v !== null)).size > 1;
}

/** A row's note when the model has no headline: the short form of `noHeadline` (the full line is on stderr). */
function rowNote(m: ScoredModel, maxUndecided: number): string | null {
  if (m.noHeadline === null || m.undecided === null) return null;
  const u = m.undecided;
  const why = u.total === u.pairs ? "no pair decided" : `${u.share.toFixed(1)} % undecided > ${maxUndecided} %`;
  return `no headline: ${why}; regenerate (run --retry-errors)`;
}

/** The printout of a score document. */
export function scorePrintout(doc: ScoreDocument, view: ScoreView = {}): Printout {
  const blocks: PrintBlock[] = [];
  const rows = decisionRows(doc);
  const columns = decisionColumns(doc, rows);
  const withBfclDecoded = rows.some((r) => r.bfclDecoded !== undefined);
  blocks.push({
    kind: "text",
    text:
      (view.title ?? `Decision to act on ${pairSetLabel(doc)}${decidedLabel(doc)}${historyLabel(doc.models)}${runLabel(doc.models)}`) +
      "\n\n",
  });
  // no row, no table (the CLI prints nothing then: the reason is on stderr)
  if (rows.length > 0) blocks.push({ kind: "table", table: tableOf("decision", rows, columns) });
  if (rows.length > 0 && withBfclDecoded)
    blocks.push({
      kind: "text",
      text: `\n${BFCL_DECODED_LEGEND}\n`,
      elsewhere: renderProblemLine(note("bfcl-decoded", BFCL_DECODED_LEGEND)) + "\n",
    });
  if (doc.trials !== null) blocks.push(...trialsBlocks(doc.trials));
  if (doc.official !== null) blocks.push(...officialBlocks(doc, doc.official));
  if (doc.sensitivity !== null) blocks.push(...sensitivityBlocks(doc, doc.sensitivity));
  if (doc.workaround !== null) {
    blocks.push({
      kind: "text",
      text:
        "\nTable F1 - miss_func attempts on the withheld turn, replayed on the simulated BFCL classes.\n" +
        "removed: called the removed function; aligned: reached the anchor in the reference's state;\n" +
        "workaround: aligned and reached the reference's post-call state by other functions (no-op references excluded);\n" +
        "acc: strict decision; acc_prime: workarounds counted as holding back; credited: also the compound turns.\n\n",
    });
    blocks.push({ kind: "table", table: tableOf("table-f1", doc.workaround, workaroundColumns) });
  }
  // the README's table: the decision and BFCL's official score side by side, one row per model (asked by --table combined)
  const combined = combinedBlock(doc, rows, columns);
  if (combined !== null && view.combined === true) blocks.push(combined);
  if (doc.aligned !== null) blocks.push(...alignedBlocks(doc.aligned.models));
  if (doc.emptyTurns !== null) blocks.push(...emptyTurnBlocks(doc.emptyTurns));
  const files = view.showFiles === false ? { lines: [], notes: "" } : filesUsed(doc.models, view.verbose === true);
  if (files.lines.length > 0)
    blocks.push({ kind: "text", text: ["", "Files used:", ...files.lines, ""].join("\n"), elsewhere: files.notes });
  return { blocks };
}

/** One row per model with a pair read. */
function decisionRows(doc: ScoreDocument): Row[] {
  const read = doc.models.filter((m) => m.undecided !== null && m.counts !== null && m.undecided.pairs > 0);
  return read.map((m) => ({
    ...scoreRow({
      model: m.model,
      numbers: m.numbers,
      pairs: m.undecided!.pairs,
      undecided: m.undecided!.byStatus,
      counts: m.counts!,
      note: rowNote(m, doc.options.maxUndecided),
    }),
    ci: m.ci95,
    bfcl: m.bfclVersion ?? "",
    history: m.history?.protocol ?? "own",
    bfclDecoded: m.bfclDecoded,
  }));
}

/** The decision table's columns: undecided kinds only where some row has one, the interval, the decoded share, notes, version, history. */
function decisionColumns(doc: ScoreDocument, rows: readonly Row[]): Column<Row>[] {
  const shownHeader = (h: string) =>
    !UNDECIDED_HEADERS.includes(h) || rows.some((r) => Number(scoreColumns.find((c) => c.header === h)!.cell(r)) > 0);
  const columns: Column<Row>[] = scoreColumns
    .filter((c) => shownHeader(c.header))
    .map((c) => ({ header: c.header, value: (r: Row) => c.cell(r), align: c.header === "model" ? "left" : "right" }));
  if (doc.bootstrap.resamples > 0) {
    const at = columns.findIndex((c) => c.header === "decision");
    columns.splice(at + 1, 0, { header: "95% CI", value: (r) => intervalCell(r.ci), align: "right", csvPair: ["ci_low", "ci_high"] });
  }
  if (rows.some((r) => r.bfclDecoded !== undefined)) {
    const after = columns.findIndex((c) => c.header === (doc.bootstrap.resamples > 0 ? "95% CI" : "decision"));
    columns.splice(after + 1, 0, ...BFCL_DECODED_COLUMNS);
  }
  if (rows.some((r) => r.note !== "")) columns.push({ header: "note", value: (r) => r.note });
  // models of several BFCL versions are scored on different pairs: the table says which
  if (mixedVersions(doc.models)) columns.splice(1, 0, { header: "bfcl", value: (r) => r.bfcl });
  // models of both histories side by side: the table says each model's
  if (new Set(rows.map((r) => r.history)).size > 1) columns.splice(1, 0, { header: "history", value: (r) => r.history });
  return columns;
}

/** BFCL's official score on the same items, and its rank correlation with the decision. */
function officialBlocks(doc: ScoreDocument, official: NonNullable<ScoreDocument["official"]>): PrintBlock[] {
  const blocks: PrintBlock[] = [
    { kind: "text", text: "\nOfficial score on the same items (BFCL's verdict, read from the score files):\n" },
  ];
  const played = doc.models.filter((m) => m.history?.protocol === "reference" && m.numbers !== null).map((m) => m.model);
  if (played.length > 0) {
    blocks.push({
      kind: "text",
      text: `(meaningless for ${played.join(", ")}, left out: their turns before the anchor were played from the reference, not by the model, so BFCL's verdict is not the model's)\n`,
    });
  }
  if (official.models.length > 0) blocks.push({ kind: "table", table: tableOf("official", official.models, officialColumns) });
  else if (played.length > 0) {
    // every model was read from the reference: there is nothing official to show, and the line above says why
  } else {
    const missing = problem("official-missing", "no model has complete score files", { severity: "warning" });
    blocks.push({ kind: "text", text: "(no model has complete score files)\n", elsewhere: renderProblemLine(missing) + "\n" });
  }
  // below SPEARMAN_MIN_MODELS no ranking of the models can reach p < 0.05: the line would say nothing
  const s = official.models.length >= SPEARMAN_MIN_MODELS ? official.spearman : null;
  if (s !== null) {
    blocks.push({
      kind: "text",
      text: `Spearman rank correlation with decision accuracy: official raw on the miss items rho = ${s.missRho.toFixed(2)} (p = ${s.missP.toFixed(2)}), on the base twins rho = ${s.baseRho.toFixed(2)} (p = ${s.baseP.toFixed(2)})\n`,
    });
  }
  return blocks;
}

/** The sensitivity table (Appendix F) and the rank-1 shares under resampling. */
function sensitivityBlocks(doc: ScoreDocument, sensitivity: NonNullable<ScoreDocument["sensitivity"]>): PrintBlock[] {
  const noted = sensitivity.rows.some((r) => r.note !== undefined);
  const blocks: PrintBlock[] = [
    { kind: "text", text: "\nSensitivity of the table (Appendix F):\n" },
    {
      kind: "table",
      table: tableOf("sensitivity", sensitivity.rows, noted ? [...sensitivityColumns, sensitivityNote] : sensitivityColumns),
    },
  ];
  const rank1 = sensitivity.rank1;
  if (rank1 !== null) {
    blocks.push({
      kind: "text",
      text: `Rank 1 on decision (share of ${doc.bootstrap.resamples} resamples, one shared stream): ${rank1.map((r) => `${r.model} ${r.share.toFixed(1)}%`).join(", ")}\n`,
    });
  }
  return blocks;
}

const trialsColumns: Column<TrialsSummary>[] = [
  { header: "model", value: (t) => t.model },
  { header: "trials", value: (t) => String(t.trials), align: "right" },
  { header: "N", value: (t) => String(t.pairs), align: "right" },
  { header: "act", value: (t) => f1(t.act), align: "right" },
  { header: "hold", value: (t) => f1(t.hold), align: "right" },
  { header: "decision", value: (t) => f1(t.decision), align: "right" },
  { header: "95% CI", value: (t) => intervalCell(t.ci95), align: "right", csvPair: ["ci_low", "ci_high"] },
  { header: "flip", value: (t) => f1(t.meanFlipRate), align: "right" },
  { header: "stable", value: (t) => f1(t.stableShare), align: "right" },
  { header: "spread", value: (t) => f1(t.decisionSpread), align: "right" },
];

const outcome = (act: boolean, hold: boolean) => `${act ? "A" : "a"}${hold ? "H" : "h"}`;

const unstableColumns: Column<PairTrials>[] = [
  { header: "pair", value: (p) => p.missId },
  { header: "base", value: (p) => p.baseId },
  { header: "trials", value: (p) => String(p.trials), align: "right" },
  { header: "flip", value: (p) => f1(p.flipRate), align: "right" },
  { header: "outcomes", value: (p) => p.act.map((a, i) => outcome(a, p.hold[i])).join(" ") },
];

/** The repeated-trial numbers of `--trials-of`: one row for the model over its trials, then the pairs whose outcome changed. */
function trialsBlocks(t: TrialsSummary): PrintBlock[] {
  const unstable = t.pairRows.filter((p) => p.flipRate !== null && p.flipRate > 0);
  return [
    {
      kind: "text",
      text:
        `\nOver ${t.trials} trials (${t.runs.join(", ")}): act and hold are means over each pair's trials; the interval resamples base twins, then each pair's trials;\n` +
        "flip: mean share of trial pairs whose outcome differs; stable: pairs with one outcome in every trial; spread: SD of the trials' decisions.\n\n",
    },
    { kind: "table", table: tableOf("trials", [t], trialsColumns) },
    { kind: "text", text: `Decision by trial: ${t.decisionByTrial.map(f1).join(", ")}\n` },
    ...(unstable.length === 0
      ? [{ kind: "text" as const, text: "No pair changed its outcome between trials.\n" }]
      : [
          {
            kind: "text" as const,
            text: `\n${unstable.length} of ${t.pairsWithTrials} pairs changed their outcome between trials (A/a: acted or not on the base twin, H/h: held back or not on the withheld one):\n\n`,
          },
          { kind: "table" as const, table: tableOf("unstable-pairs", unstable, unstableColumns) },
        ]),
  ];
}

/** The headers of the decision table the combined table keeps (the counts of left-out pairs stay in the decision table). */
const COMBINED_HEADERS = [
  "model",
  "history",
  "bfcl",
  "N",
  "act",
  "hold",
  "decision",
  "95% CI",
  "hold+c",
  "dec+c",
  "pair",
  "mf",
  "mp",
  "note",
];

/**
 * The combined table: each model's decision row and, beside it, BFCL's official raw on the
 * same should-ask items and on their base twins (empty for a model the official table leaves out).
 */
function combinedBlock(doc: ScoreDocument, rows: readonly Row[], columns: readonly Column<Row>[]): PrintBlock | null {
  if (doc.official === null || rows.length === 0) return null;
  const official = new Map(doc.official.models.map((o) => [o.model, o]));
  const kept = columns.filter((c) => COMBINED_HEADERS.includes(c.header));
  const note = kept.findIndex((c) => c.header === "note");
  const extra: Column<Row>[] = [
    { header: "off.miss", value: (r) => f1(official.get(r.model)?.rawMiss), align: "right" },
    { header: "off.base", value: (r) => f1(official.get(r.model)?.rawBase), align: "right" },
  ];
  const all = note < 0 ? [...kept, ...extra] : [...kept.slice(0, note), ...extra, ...kept.slice(note)];
  const caption = `Decision to act and BFCL's official score on ${pairSetLabel(doc)}; N counts the pairs decided on both twins, off.miss is BFCL's pass rate on the should-ask items, off.base on their distinct base twins`;
  return { kind: "table", table: { ...tableOf("combined", rows, all), caption }, inTableFormat: true };
}

/** The note `score` prints on stderr after writing the per-item file. */
export function perItemNote(doc: ScoreDocument): Note | null {
  return doc.perItem === null ? null : writtenNote(doc.perItem.file, `${doc.perItem.rows} rows`);
}
