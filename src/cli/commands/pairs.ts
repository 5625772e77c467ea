/**
 * `twinscore pairs`: build the twin-pair manifest from a BFCL data directory and print
 * the funnel, or list the committed manifest when no data directory is available.
 * Wiring only — the builder is `src/pairs/build.ts`.
 */
import { Option, type Command } from "commander";
import { readFileSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { renderProblemLine, type Problem } from "../../messages/index.js";
import { buildManifest } from "../../pairs/build.js";
import { funnelLine, funnelNotes, listingRows, type PairListingRow } from "../../pairs/listing.js";
import type { Manifest } from "../../pairs/types.js";
import { readBfclDataDir, resolveBfclDataDir } from "../../io/bfcl-data.js";
import { committedCertificationPath, committedManifestPath, loadManifest, writeManifest } from "../../io/manifest.js";
import { renderJson, renderRows, type Column } from "../../report/printout.js";
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
function obtainManifest(opts: PairsOptions, io: CliIo): { manifest: Manifest; built: boolean } | { problems: readonly Problem[] } {
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
    return { manifest: loaded.value, built: false };
  }
  if (location.origin === "bfcl_eval") io.stderr(`reading BFCL data from the bfcl_eval installation at ${location.dir}\n`);
  const data = readBfclDataDir(location.dir, ["base", "miss_func", "miss_param"]);
  if (!data.ok) return { problems: data.problems };
  const certDir = opts.certification !== undefined ? resolve(io.cwd, opts.certification) : null;
  const certFile = (name: "bad-keys.tsv" | "rulings.tsv") => (certDir ? join(certDir, name) : committedCertificationPath(name));
  const texts = [];
  for (const name of ["bad-keys.tsv", "rulings.tsv"] as const) {
    const file = certFile(name);
    if (!existsSync(file)) return { problems: [{ code: "file-missing", severity: "error", message: "certification file missing", file }] };
    texts.push({ file, text: readFileSync(file, "utf8") });
  }
  const built = buildManifest({ data: data.value, badKeys: texts[0], rulings: texts[1] });
  if (!built.ok) return { problems: built.problems };
  return { manifest: built.value, built: true };
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
        "a construction error. Without a BFCL data directory the committed manifest is listed.",
    )
    .option("--bfcl-data <dir>", "BFCL data directory (else BFCL_DATA_DIR, else a bfcl_eval installation)")
    .addOption(new Option("--format <format>", "table: funnel + one row per item; tsv/csv/markdown: rows; json: funnel + rows").choices(formats).default("table"))
    .option("--write-manifest <file>", "write the built manifest to FILE (atomically; e.g. data/manifest.json)")
    .option("--certification <dir>", "folder with bad-keys.tsv and rulings.tsv (default: the package's data/certification)")
    .addHelpText(
      "after",
      "\nColumns: miss_id, category, base_id, anchor_turn (0-based), status (scored | excluded | dropped), reason.\n" +
        "'excluded' pairs are content-verified but pose no decision (read-only or login-only anchor) or are\n" +
        "construction errors; 'dropped' items never became pairs (bad key, multi-anchor, shape, calls, dialogue).\n",
    )
    .action((opts: PairsOptions) => {
      const got = obtainManifest(opts, io);
      if ("problems" in got) {
        report(io, got.problems);
        state.exitCode = ExitCode.badInput;
        return;
      }
      const { manifest } = got;
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
