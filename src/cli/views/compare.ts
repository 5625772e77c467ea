/**
 * How `compare` prints its document in the text formats: one row per measure and slice
 * of each model (rates with one decimal, changes signed, p-values as the paper prints them).
 */
import type { CompareDocument } from "../../app/compare.js";
import type { TrialsComparisonDocument } from "../../app/compare-trials.js";
import { comparisonRows, type ComparisonRow } from "../../official/compare.js";
import { intervalCell, tableOf, type Column, type PrintBlock, type Printout } from "../../report/printout.js";
import { injectionCheckLine } from "../../rollout/inject-check.js";
import { note, renderProblemLine } from "../../messages/index.js";

const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : "");
const signed = (x: number) => (Number.isFinite(x) ? (x >= 0 ? "+" : "") + x.toFixed(1) : "");

/** A p-value as the paper prints it: two significant digits, scientific below 0.001. */
export function formatP(p: number | null): string {
  if (p === null) return "";
  if (p >= 0.001) return p >= 0.995 ? "1" : p.toPrecision(2).replace(/0+$/, "").replace(/\.$/, "");
  return p.toExponential(1);
}

type Row = ComparisonRow & { model: string };

const columns: Column<Row>[] = [
  { header: "model", value: (r) => r.model },
  { header: "measure", value: (r) => r.measure },
  { header: "slice", value: (r) => r.slice },
  { header: "N", value: (r) => r.n, align: "right" },
  { header: "A", value: (r) => f1(r.a), align: "right" },
  { header: "B", value: (r) => f1(r.b), align: "right" },
  { header: "B-A", value: (r) => signed(r.change), align: "right" },
  { header: "A only", value: (r) => r.aOnly, align: "right" },
  { header: "B only", value: (r) => r.bOnly, align: "right" },
  { header: "McNemar p", value: (r) => formatP(r.p), align: "right" },
  { header: "95% CI", value: (r) => intervalCell(r.ci95, true), align: "right", csvPair: ["ci_low", "ci_high"] },
];

/** The help text for the columns (`twinscore help comparison`, which flows and wraps it). */
export const compareColumnsHelp =
  "\nColumns: A, B are rates in % (official: pass rate); B-A in points; 'A only' counts pairs/items\n" +
  "that are 1 in A and 0 in B (for official rows: pass->fail), 'B only' the reverse (fail->pass);\n" +
  "McNemar p is the exact two-sided binomial test on those discordant counts. The 95% CI of the\n" +
  "decision change resamples base twins (seeded NumPy stream, the same draws for both arms).\n" +
  "\nWith --bfcl-data DIR, BFCL's checker runs on both arms (twinscore's TypeScript one):\n" +
  "  aligned pair       % of pairs where both twins are decided right AND completed: the base twin acted on the anchor turn T and passes BFCL's checker through T, the withheld twin held back on T and passes through T+1 (the turn that supplies what was missing). McNemar on the pairs whose aligned outcome changed; 95% CI of the change as for decision.\n" +
  "  withheld …         the withheld twin's cells: held+done (asked, then did it), held+not (held back, not completed through T+1), acted+done (a lucky guess), acted+not; base acted+done.\n" +
  "  empty turns: …     per category, every entry of the result files: BFCL checker (BFCL's score), strict (BFCL's own multi_turn_irrelevance_checker added: any call on a turn whose reference is empty fails the entry), world-changing (only a world-changing attempt there fails).\n" +
  "Does arm B trade resolution for restraint? Then hold rises while held+not rises and held+done does not:\n" +
  "the model holds back more but does not do the work once told. The aligned pair row says what the trade\n" +
  "nets. None of these is BFCL's score, which never scores T and needs every later turn.\n";

const historyWords = { own: "own history before the anchor", reference: "reference history before the anchor: exact twins" } as const;

/** What an arm's history is, when an arm played the turns before the anchor from the reference (all its models alike, or each model's). */
function armHistory(doc: CompareDocument, arm: "a" | "b"): string {
  const made = (doc.runs ?? []).filter((r) => r[arm] !== null);
  const runs = made.length === 0 ? "" : `; made by twinscore run: ${made.map((r) => `${r.model} (${r[arm]})`).join("; ")}`;
  return armHistoryOnly(doc, arm) + runs;
}

function armHistoryOnly(doc: CompareDocument, arm: "a" | "b"): string {
  if (doc.histories === undefined) return "";
  const kinds = [...new Set(doc.histories.map((h) => h[arm]))];
  return kinds.length === 1 ? ` (${historyWords[kinds[0]]})` : ` (${doc.histories.map((h) => `${h.model}: ${h[arm]}`).join(", ")})`;
}

/** What the rows mean when the arms' histories differ: the change the history causes, and no injection check. */
function historyChange(doc: CompareDocument): string {
  const differ = (doc.histories ?? []).filter((h) => h.a !== h.b).map((h) => h.model);
  if (differ.length === 0) return "";
  return (
    `B-A is the change the history before the anchor causes${differ.length < (doc.histories ?? []).length ? ` (for ${differ.join(", ")})` : ""}, the same model on the same pairs; ` +
    "no injection check between two histories (their first requests differ by the played turns, not by a prompt block)\n"
  );
}

/** The printout of a compare document. */
export function comparePrintout(doc: CompareDocument): Printout {
  const rows: Row[] = doc.models.flatMap(({ model, comparison }) => comparisonRows(comparison).map((r) => ({ ...r, model })));
  const blocks: PrintBlock[] = [
    { kind: "text", text: `Arm A: ${doc.a}${armHistory(doc, "a")}\nArm B: ${doc.b}${armHistory(doc, "b")}\n${historyChange(doc)}\n` },
    { kind: "table", table: tableOf("comparison", rows, columns) },
  ];
  if (doc.noHeadline.length > 0) {
    const models = [...new Set(doc.noHeadline.map((x) => x.model))];
    const why = (m: string) =>
      doc.noHeadline
        .filter((x) => x.model === m)
        .map((x) => `arm ${x.arm}: ${x.why}`)
        .join("; ");
    const text = `Not compared (no headline in an arm, as score leaves its row empty): ${models.map((m) => `${m} (${why(m)})`).join(", ")}\n`;
    blocks.push({ kind: "text", text: "\n" + text, elsewhere: renderProblemLine(note("not-compared", text.trimEnd())) + "\n" });
  }
  if (doc.injection.length > 0) {
    const lines = doc.injection.map((i) => injectionCheckLine(i.model, i.check, i.injectedLines));
    const notes = lines.map((l) => renderProblemLine(note("injection-check", l)) + "\n").join("");
    blocks.push({ kind: "text", text: "\n" + lines.join("\n") + "\n", elsewhere: notes });
  }
  return { blocks };
}

/** The printout of a comparison over trials: each arm over its trials, then the paired change. */
export function trialsComparePrintout(doc: TrialsComparisonDocument): Printout {
  const arms = [
    { arm: "A", t: doc.a!, decision: doc.decisionA },
    { arm: "B", t: doc.b!, decision: doc.decisionB },
  ];
  const one = (v: number | null) => (v === null ? "" : v.toFixed(1));
  const columns: Column<(typeof arms)[number]>[] = [
    { header: "arm", value: (r) => r.arm },
    { header: "model", value: (r) => r.t.model },
    { header: "trials", value: (r) => String(r.t.trials), align: "right" },
    { header: "N", value: (r) => String(r.t.pairs), align: "right" },
    { header: "decision", value: (r) => one(r.t.decision), align: "right" },
    { header: "95% CI", value: (r) => intervalCell(r.t.ci95), align: "right", csvPair: ["ci_low", "ci_high"] },
    { header: "flip", value: (r) => one(r.t.meanFlipRate), align: "right" },
    { header: "stable", value: (r) => one(r.t.stableShare), align: "right" },
    { header: "on common pairs", value: (r) => one(r.decision), align: "right" },
  ];
  const change = `${doc.change! >= 0 ? "+" : ""}${doc.change!.toFixed(1)}`;
  const ci = doc.ci95 === null ? "" : ` [${doc.ci95[0].toFixed(1)}, ${doc.ci95[1].toFixed(1)}]`;
  return {
    blocks: [
      { kind: "text", text: "Decision over repeated trials, arm A against arm B (means over each pair's trials)\n\n" },
      { kind: "table", table: tableOf("trial-arms", arms, columns) },
      {
        kind: "text",
        text: `\nDecision change B - A on the ${doc.pairs} pairs both arms decided: ${change}${ci} (paired bootstrap over base twins, then each arm's trials within each pair)\n`,
      },
    ],
  };
}
