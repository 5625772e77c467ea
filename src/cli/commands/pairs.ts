/**
 * `twinscore pairs`: flags → `buildPairs` (`src/app/pairs.ts`) → the funnel and one row per
 * should-ask item, in the chosen format.
 */
import { Option, type Command } from "commander";
import { buildPairs } from "../../app/pairs.js";
import type { PairListingRow } from "../../pairs/listing.js";
import { renderJson, renderTable, tableOf, type Column } from "../../report/printout.js";
import type { CliIo } from "../io.js";
import { printProblems } from "../problems.js";
import type { RegisterCommand } from "./index.js";

const formats = ["table", "tsv", "json", "csv", "markdown"] as const;
type PairsFormat = (typeof formats)[number];

const columns: Column<PairListingRow>[] = [
  { header: "miss_id", value: (r) => r.miss_id },
  { header: "category", value: (r) => r.category },
  { header: "base_id", value: (r) => r.base_id },
  { header: "anchor_turn", value: (r) => r.anchor_turn, align: "right" },
  { header: "status", value: (r) => r.status },
  { header: "reason", value: (r) => r.reason },
];

interface PairsOptions {
  bfclData?: string;
  format: PairsFormat;
  writeManifest?: string;
  certification?: string;
}

/** Register `twinscore pairs`. */
export const registerPairs: RegisterCommand = (program: Command, io: CliIo, state) => {
  program
    .command("pairs")
    .summary("build the twin-pair manifest from BFCL data and print the pairing funnel")
    .description(
      "Build the twin pairs from BFCL's multi-turn data and print the pairing funnel.\n\n" +
        "Each miss_func / miss_param item is paired with the base item of the same index when its " +
        "reference, with its one empty turn (the anchor) deleted, matches the base reference call for call " +
        "and the dialogue before the anchor matches character for character. A pair is scored when the base " +
        "reference makes a world-changing call on the anchor turn and the hand certification does not rule it " +
        "a construction error. An item whose reference cannot be lined up with its question (another number " +
        "of turns, or no reference; reported on stderr), or a miss_func item whose missed_function names a " +
        "turn with a user message (BFCL cannot run it), is dropped as 'misaligned'; the build goes on. " +
        "Without a BFCL data directory the committed manifest is listed.\n\n" +
        "BFCL v4 and v3 data both build (the file prefix says which); the package ships data/manifest.json (v4) " +
        "and data/manifest-v3.json. The hand rulings (bad keys, construction errors, compound turns, and the " +
        "'valid' verdict of every other candidate) were made on BFCL v4's items, whose content " +
        "certified-content.tsv records field by field. A ruling applies to an item only where the item is " +
        "equal to the one it was made on: the same question (every turn, each message's role and content), " +
        "initial_config (as JSON values), involved_classes (in order), missed_function (turn and names) and " +
        "reference (every call string of every turn). Not compared: path and excluded_function (metadata no " +
        "BFCL code reads), the function docs (shared by a class, not part of the item), BFCL's executor " +
        "code. A bad key applies when the " +
        "should-ask item is equal; a certification ruling when both twins are. Any other candidate pair is " +
        "scored as 'uncertified' and counted in the funnel; rulings and bad keys not applied are counted too.",
    )
    .option("--bfcl-data <dir>", "BFCL data directory (else BFCL_DATA_DIR, else a bfcl_eval installation)")
    .addOption(new Option("--format <format>", "table: funnel + one row per item; tsv/csv/markdown: rows; json: funnel + rows").choices(formats).default("table"))
    .option("--write-manifest <file>", "write the built manifest to FILE (atomically; e.g. data/manifest.json)")
    .option(
      "--certification <dir>",
      "folder with bad-keys.tsv, rulings.tsv and optionally certified-content.tsv, the items they were made on " +
        "(default: the package's data/certification; without certified-content.tsv, the package's)",
    )
    .addHelpText(
      "after",
      "\nColumns: miss_id, category, base_id, anchor_turn (0-based), status (scored | excluded | dropped), reason.\n" +
        "'excluded' pairs are content-verified but pose no decision (read-only or login-only anchor) or are\n" +
        "construction errors; 'dropped' items never became pairs (bad key, misaligned, multi-anchor, shape,\n" +
        "calls, dialogue). A scored pair's reason is its certification: 'certified valid|compound', or\n" +
        "'uncertified: differs in miss.question, base.reference, …' (twin.field that differs from the certified item).\n\n" +
        "Examples:\n" +
        "  twinscore pairs --bfcl-data ../bfcl-v3 --write-manifest data/manifest-v3.json\n" +
        "  twinscore pairs --bfcl-data ../bfcl-v4 --format json\n" +
        "\nExit: 0 built (or listed); 2 bad BFCL data, a certification file missing, or the manifest could not be written.\n",
    )
    .action(async (opts: PairsOptions) => {
      const doc = await buildPairs({ bfclData: opts.bfclData, writeManifest: opts.writeManifest, certification: opts.certification, cwd: io.cwd, env: io.env });
      printProblems(io, doc.problems, { command: "pairs" });
      state.exitCode = doc.exitCode;
      if (doc.funnel === null) return;
      if (doc.readFrom) io.stderr(doc.readFrom + "\n");
      if (doc.written !== null) io.stderr(`wrote ${doc.written.file} (${doc.written.pairs} pairs, ${doc.written.dropped} dropped)\n`);
      const table = tableOf("pairs", doc.items, columns);
      switch (opts.format) {
        case "json":
          io.stdout(renderJson(doc));
          break;
        case "table":
          io.stdout([doc.funnelLine, ...doc.funnelNotes, ""].join("\n") + "\n");
          io.stdout(renderTable(table, "table"));
          break;
        default:
          io.stdout(renderTable(table, opts.format));
      }
    });
};
