/**
 * `twinscore pairs`: build the twin-pair manifest from a BFCL data directory and print
 * the funnel, or list the committed manifest when no data directory is available.
 * Wiring only — the builder is `src/pairs/build.ts`.
 */
import { Option, type Command } from "commander";
import { readFileSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { problem, renderProblemLine, type Problem } from "../../messages/index.js";
import { multiTurnCategories } from "../../bfcl/data.js";
import { buildManifest } from "../../pairs/build.js";
import { funnelLine, funnelNotes, listingRows, type PairListingRow } from "../../pairs/listing.js";
import type { Manifest } from "../../pairs/types.js";
import { readBfclDataDir, resolveBfclDataDir } from "../../io/bfcl-data.js";
import { committedCertificationPath, committedManifestPath, loadManifest, writeManifest } from "../../io/manifest.js";
import { renderJson, renderRows, type Column } from "../format.js";
import { ExitCode, type CliIo } from "../io.js";
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

function report(io: CliIo, problems: readonly Problem[]): void {
  const shown = problems.slice(0, 10);
  for (const p of shown) io.stderr(renderProblemLine(p) + "\n");
  if (problems.length > shown.length) io.stderr(`… and ${problems.length - shown.length} more problems\n`);
}

/** Build from data when a directory is given or installed; otherwise load the committed manifest. */
function obtainManifest(
  opts: PairsOptions,
  io: CliIo,
): { manifest: Manifest; built: boolean; warnings: readonly Problem[] } | { problems: readonly Problem[] } {
  const location = resolveBfclDataDir({ flag: opts.bfclData, env: io.env, cwd: io.cwd });
  if (!location) {
    if (opts.writeManifest !== undefined) {
      return {
        problems: [
          {
            code: "bfcl-data-missing",
            severity: "error",
            message: "--write-manifest needs BFCL data: pass --bfcl-data DIR or set BFCL_DATA_DIR",
          },
        ],
      };
    }
    const loaded = loadManifest();
    if (!loaded.ok) return { problems: loaded.problems };
    io.stderr(`no BFCL data directory given (--bfcl-data, BFCL_DATA_DIR, or a bfcl_eval installation); listing ${committedManifestPath()}\n`);
    return { manifest: loaded.value, built: false, warnings: [] };
  }
  if (location.origin === "bfcl_eval") io.stderr(`reading BFCL data from the bfcl_eval installation at ${location.dir}\n`);
  const data = readBfclDataDir(location.dir, ["base", "miss_func", "miss_param"]);
  if (!data.ok) return { problems: data.problems };
  const certDir = opts.certification !== undefined ? resolve(io.cwd, opts.certification) : null;
  const certFile = (name: "bad-keys.tsv" | "rulings.tsv" | "certified-content.tsv") => {
    const inDir = certDir ? join(certDir, name) : null;
    // a rulings folder without its own content record was made on the package's (BFCL v4) items
    if (inDir !== null && (name !== "certified-content.tsv" || existsSync(inDir))) return inDir;
    return committedCertificationPath(name);
  };
  const texts = [];
  for (const name of ["bad-keys.tsv", "rulings.tsv", "certified-content.tsv"] as const) {
    const file = certFile(name);
    if (!existsSync(file)) return { problems: [{ code: "file-missing", severity: "error", message: "certification file missing", file }] };
    texts.push({ file, text: readFileSync(file, "utf8") });
  }
  const built = buildManifest({ data: data.value, badKeys: texts[0], rulings: texts[1], certifiedContent: texts[2] });
  if (!built.ok) return { problems: built.problems };
  const warnings = multiTurnCategories.flatMap((c) =>
    (data.value.categories[c]?.unusable ?? []).map((u) =>
      problem(u.code, `${u.id} ${u.reason}; left out of the pairs`, { file: u.file, ...(u.line === null ? {} : { line: u.line }), severity: "warning" }),
    ),
  );
  return { manifest: built.value, built: true, warnings };
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
        "of turns, or no reference) is reported on stderr and dropped as 'misaligned'; the build goes on. " +
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
        "  twinscore pairs --bfcl-data ../bfcl-v4 --format json\n",
    )
    .action((opts: PairsOptions) => {
      const got = obtainManifest(opts, io);
      if ("problems" in got) {
        report(io, got.problems);
        state.exitCode = ExitCode.badInput;
        return;
      }
      const { manifest } = got;
      for (const w of got.warnings) io.stderr(renderProblemLine(w) + "\n");
      if (opts.writeManifest !== undefined) {
        const target = resolve(io.cwd, opts.writeManifest);
        const written = writeManifest(target, manifest);
        if (!written.ok) {
          report(io, written.problems);
          state.exitCode = ExitCode.badInput;
          return;
        }
        io.stderr(`wrote ${target} (${manifest.pairs.length} pairs, ${manifest.dropped.length} dropped)\n`);
      }
      const rows = listingRows(manifest);
      switch (opts.format) {
        case "json":
          io.stdout(renderJson({ source: manifest.source, funnel: manifest.funnel, funnelLine: funnelLine(manifest.funnel), items: rows }));
          break;
        case "table":
          io.stdout([funnelLine(manifest.funnel), ...funnelNotes(manifest.funnel), ""].join("\n") + "\n");
          io.stdout(renderRows(rows, columns, "table"));
          break;
        default:
          io.stdout(renderRows(rows, columns, opts.format));
      }
    });
};
