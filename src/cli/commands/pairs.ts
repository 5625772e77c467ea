/**
 * `twinscore pairs`: flags → `buildPairs` (`src/app/pairs.ts`) → the funnel and one row per
 * should-ask item, in the chosen format.
 */
import { manifestsOf, renderVersionedJson } from "../versioned-json.js";
import type { Command } from "commander";
import { buildPairs } from "../../app/pairs.js";
import { counted, note } from "../../messages/index.js";
import type { PairListingRow } from "../../pairs/listing.js";
import { renderJson, renderTable, tableOf, type Column } from "../../report/printout.js";
import { commandHelpFooter } from "../help-topics.js";
import type { CliIo } from "../io.js";
import { bfclDataGroup, formatGroup, strictGroup, verboseGroup, withGroups, type ParsedOptions } from "../option-groups.js";
import { printNotes, printProblems, writtenNote } from "../problems.js";
import type { RegisterCommand } from "./index.js";

const format = formatGroup(
  ["table", "tsv", "json", "csv", "markdown"] as const,
  "table: funnel + one row per item; tsv/csv/markdown: rows; json: funnel + rows",
);
const bfclData = bfclDataGroup(
  "the data to build the pairs from (else BFCL_DATA_DIR, else a bfcl_eval installation; none: the committed manifest is listed)",
);

const columns: Column<PairListingRow>[] = [
  { header: "miss_id", value: (r) => r.miss_id },
  { header: "category", value: (r) => r.category },
  { header: "base_id", value: (r) => r.base_id },
  { header: "anchor_turn", value: (r) => r.anchor_turn, align: "right" },
  { header: "status", value: (r) => r.status },
  { header: "reason", value: (r) => r.reason },
];

/** Register `twinscore pairs`. */
export const registerPairs: RegisterCommand = (program: Command, io: CliIo, state) => {
  const cmd = program
    .command("pairs")
    .summary("build the twin-pair manifest from BFCL data and print the pairing funnel")
    .description(
      "Build the twin pairs from BFCL's multi-turn data (v4 or v3) and print the pairing funnel and one row per " +
        "should-ask item; without BFCL data, list the committed manifest.",
    );
  withGroups(cmd, bfclData, format)
    .option("--write-manifest <file>", "write the built manifest to FILE (atomically; e.g. data/manifest.json)")
    .option(
      "--certification <dir>",
      "folder with bad-keys.tsv, rulings.tsv and optionally certified-content.tsv, the items they were made on " +
        "(default: the package's data/certification; without certified-content.tsv, the package's)",
    );
  withGroups(cmd, strictGroup, verboseGroup)
    .addHelpText(
      "after",
      "\nExit: 0 built (or listed; 1 with a problem under --strict); 2 bad BFCL data, a certification file missing,\n" +
        "or the manifest could not be written." +
        commandHelpFooter(["pairing", "formats", "exit-codes"]),
    )
    .action(async (opts: ParsedOptions) => {
      const doc = await buildPairs({
        ...bfclData.read(opts),
        ...(opts.writeManifest === undefined ? {} : { writeManifest: opts.writeManifest as string }),
        ...(opts.certification === undefined ? {} : { certification: opts.certification as string }),
        ...strictGroup.read(opts),
        cwd: io.cwd,
        env: io.env,
      });
      printProblems(io, doc.problems, verboseGroup.read(opts));
      state.exitCode = doc.exitCode;
      if (doc.funnel === null) return;
      if (doc.readFrom) printNotes(io, [note("data-source", doc.readFrom)]);
      if (doc.written !== null)
        printNotes(io, [writtenNote(doc.written.file, `${counted(doc.written.pairs, "pair")}, ${doc.written.dropped} dropped`)]);
      const table = tableOf("pairs", doc.items, columns);
      const chosen = format.read(opts).format;
      switch (chosen) {
        case "json":
          io.stdout(renderVersionedJson(doc, manifestsOf({}, io.cwd)));
          break;
        case "table":
          io.stdout([doc.funnelLine, ...doc.funnelNotes, ""].join("\n") + "\n");
          io.stdout(renderTable(table, "table"));
          break;
        default:
          io.stdout(renderTable(table, chosen));
      }
    });
};
