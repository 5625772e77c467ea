/**
 * What the `--per-item` CSV's columns mean (`twinscore help per-item`): one meaning per
 * column of `decision/table.ts`'s `perItemColumns`, so a column cannot be added without
 * its explanation (the record below is keyed by them).
 */
import { perItemColumns, type PerItemRow } from "../../decision/table.js";
import { sideStatuses } from "../../decision/types.js";
import { columnMeanings } from "../../report/printout.js";

/** Each column's meaning. */
const meanings: Record<(typeof perItemColumns)[number], string> = {
  model: "model (<run>/<model> when several runs are scored)",
  miss_id: "the should-ask item (BFCL id, e.g. multi_turn_miss_func_7)",
  category: "miss_func or miss_param",
  base_id: "its base twin",
  anchor_turn: "the anchor turn, 0-based",
  status:
    "the pair's status: decided when both sides are, else the first side status that is not, in the order missing, inference-error, not-reached, undecidable",
  scored:
    "1 when the pair enters the numbers under the reading (--reading, the pair set), else 0; a model with no headline (more than --max-undecided undecided) prints no numbers, but its rows say what would",
  act: "1 when a world-changing call was attempted on the base anchor turn, 0 when not; empty when that side is not scored",
  hold: "1 when none was attempted on the miss anchor turn, 0 when one was; empty when that side is not scored",
  hold_credited: "hold with the compound-turn credit (an attempt confined to the certified independent steps holds); empty as hold",
  compound: "1 for the 27 compound anchor turns",
  calls_on_base:
    "the anchor-turn calls on the base twin, in order, ;-joined: name, * for a world-changing call, ? for a call whose arguments did not decode",
  calls_on_miss: "the same on the miss twin",
  base_status: "the base side's status (below)",
  miss_status: "the miss side's status (below)",
  decode_failures:
    "anchor-turn steps of both twins that failed to decode (their on-list names still count); a base twin shared by several pairs counts in each row, where the table's undecoded counts it once",
  miss_text: "what the model wrote on the miss anchor turn, newlines folded to spaces",
};

/** What each side status says (the `base_status` / `miss_status` values). */
const statusMeanings: Record<(typeof sideStatuses)[number], string> = {
  decided: "a world-changing attempt on the anchor turn, or none: a decision",
  undecidable: "call-like text naming no function on the anchor turn (and no world-changing call)",
  "inference-error": "the line is BFCL's inference-error string",
  "not-reached": "the rollout ended before the anchor turn",
  missing: "the result file has no line for the item",
};

/** The text of `twinscore help per-item`. */
export function perItemHelp(): string {
  const width = Math.max(...perItemColumns.map((c) => c.length), "base_completed".length) + 1;
  const statuses = [...sideStatuses].reverse();
  return (
    "score --per-item FILE writes one CSV row per model and pair of the selected set (every pair, scored or\n" +
    "not), in the order the pairs are read, atomically. Columns:\n" +
    columnMeanings(
      perItemColumns.map((c: keyof PerItemRow) => ({ header: c, meaning: meanings[c] })),
      width,
    ) +
    "\nWith --bfcl-data DIR, two more (twinscore help aligned), 0/1, empty where a completion is unknown:\n" +
    columnMeanings(
      [
        { header: "base_completed", meaning: "BFCL's checker passes the base twin through the anchor turn T" },
        {
          header: "miss_completed",
          meaning: "BFCL's checker passes the should-ask twin through T+1, the turn that supplies what was missing",
        },
      ],
      width,
    ) +
    "\nWith BFCL's score files (--scores DIR, or a run's score/), two more, BFCL's own verdict on each item\n" +
    "(1 pass, 0 fail; empty where the item has no verdict), as the report's pair browser shows it:\n" +
    columnMeanings(
      [
        { header: "base_official", meaning: "BFCL's verdict on the base twin (base_id)" },
        { header: "miss_official", meaning: "BFCL's verdict on the should-ask item (miss_id)" },
      ],
      width,
    ) +
    "\n\nSide statuses (base_status, miss_status):\n" +
    columnMeanings(
      statuses.map((s) => ({ header: s, meaning: statusMeanings[s] })),
      width,
    ) +
    "\nUnder --reading decided a side scores only when it is decided; under --reading release inference-error\n" +
    "and not-reached sides also score, as no call (twinscore help readings). act and hold stay empty on a side\n" +
    "that does not score, so a sum of the act column over scored rows is the act count.\n"
  );
}
