/**
 * `pairs`, the use case: build the twin-pair manifest from a BFCL data folder (and write
 * it when asked), or list the package's committed manifest when no data folder is found.
 * The document holds the funnel and one row per should-ask item.
 */
import { multiTurnCategories, scoredResultCategories } from "../bfcl/categories.js";
import { pushAll, problem, type Problem } from "../messages/index.js";
import { buildManifest } from "../pairs/build.js";
import { funnelLine, funnelNotes, listingRows, type PairListingRow } from "../pairs/listing.js";
import type { Funnel, Manifest } from "../pairs/types.js";
import { recordMismatch, withRevisions } from "../pairs/revisions.js";
import { joinPath, resolvePath } from "../io/paths.js";
import type { Host } from "../io/host.js";
import { contextOf, strictExitCode, type Context, type ExitCode, type RequestContext } from "./common.js";
import { requestShapeProblems, type RequestShape } from "./request-shape.js";

/** What a library caller's pairs request must hold (see `request-shape.ts`). */
const pairsShape: RequestShape = {
  bfclData: { rule: "string" },
  writeManifest: { rule: "string" },
  certification: { rule: "string" },
  strict: { rule: "boolean" },
};

/** Where the pairs come from and where they go. */
export interface PairsRequest extends RequestContext {
  /** BFCL data folder (else `BFCL_DATA_DIR`, else a `bfcl_eval` installation; none: the committed manifest is listed). */
  readonly bfclData?: string;
  /** Write the built manifest here (atomically). */
  readonly writeManifest?: string;
  /** Folder with bad-keys.tsv, rulings.tsv and optionally certified-content.tsv (default: the package's). */
  readonly certification?: string;
  /** Count every problem as a finding (exit 1). */
  readonly strict?: boolean;
}

/** The funnel and the items. */
export interface PairsDocument {
  readonly command: "pairs";
  /** Whether the manifest was built from data (else the committed one is listed). */
  readonly built: boolean;
  readonly source: Manifest["source"] | null;
  readonly funnel: Funnel | null;
  readonly funnelLine: string;
  /** The funnel's notes (what was not applied, and why). */
  readonly funnelNotes: readonly string[];
  readonly items: readonly PairListingRow[];
  /** The manifest file written, with its pairs and drops, or null. */
  readonly written: { readonly file: string; readonly pairs: number; readonly dropped: number } | null;
  /** Where the pairs were read from, in words (which data folder, or the committed file). */
  readonly readFrom: string;
  readonly problems: readonly Problem[];
  readonly exitCode: ExitCode;
}

type Got =
  | { manifest: Manifest; built: boolean; warnings: readonly Problem[]; readFrom: string; inputs: readonly string[] }
  | { problems: readonly Problem[] };

function obtainManifest(req: PairsRequest, ctx: Context): Got {
  const { host } = ctx;
  const location = host.resolveBfclDataDir({ flag: req.bfclData, env: ctx.env, cwd: ctx.cwd });
  if (!location) {
    if (req.writeManifest !== undefined)
      return { problems: [problem("bfcl-data-missing", "--write-manifest needs BFCL data: pass --bfcl-data DIR or set BFCL_DATA_DIR")] };
    const loaded = host.loadManifest();
    if (!loaded.ok) return { problems: loaded.problems };
    return {
      manifest: loaded.value,
      built: false,
      warnings: [],
      inputs: [],
      readFrom: `no BFCL data directory given (--bfcl-data, BFCL_DATA_DIR, or a bfcl_eval installation); listing ${host.committedManifestPath()}`,
    };
  }
  const inputs: string[] = [];
  const data = host.readBfclDataDir(location.dir, [...scoredResultCategories], (file) => inputs.push(file));
  if (!data.ok) return { problems: data.problems };
  const certDir = req.certification !== undefined ? resolvePath(ctx.cwd, req.certification) : null;
  const texts = [];
  for (const name of ["bad-keys.tsv", "rulings.tsv", "certified-content.tsv"] as const) {
    const inDir = certDir ? joinPath(certDir, name) : null;
    // a rulings folder without its own content record was made on the package's (BFCL v4) items
    const own = inDir === null ? null : host.readTextIfFile(inDir);
    const file = inDir !== null && (name !== "certified-content.tsv" || own !== null) ? inDir : host.committedCertificationPath(name);
    const text = file === inDir ? own : host.readTextIfFile(file);
    if (text === null) return { problems: [problem("file-missing", "certification file missing", { file })] };
    texts.push({ file, text });
    inputs.push(file);
  }
  const built = buildManifest({ data: data.value, badKeys: texts[0], rulings: texts[1], certifiedContent: texts[2] });
  if (!built.ok) return { problems: built.problems };
  const warnings = multiTurnCategories.flatMap((c) =>
    (data.value.categories[c]?.unusable ?? []).map((u) =>
      problem(u.code, `${u.id} ${u.reason}; left out of the pairs`, {
        file: u.file,
        ...(u.line === null ? {} : { line: u.line }),
        severity: "warning",
      }),
    ),
  );
  const dated = withRevisionRecord(built.value, host);
  pushAll(warnings, dated.warnings);
  return {
    manifest: dated.manifest,
    built: true,
    warnings,
    inputs,
    readFrom: location.origin === "bfcl_eval" ? `reading BFCL data from the bfcl_eval installation at ${location.dir}` : "",
  };
}

/**
 * The built manifest with the package's record of its version's data commits, when the
 * record belongs to this data (the revision it was made for); otherwise the manifest as
 * built, and a warning saying why it lists no revisions.
 */
function withRevisionRecord(manifest: Manifest, host: Host): { manifest: Manifest; warnings: Problem[] } {
  const version = manifest.source.bfclVersion;
  const loaded = host.loadCommittedRevisions(version);
  if (loaded === null) return { manifest, warnings: [] };
  if (!loaded.ok) return { manifest, warnings: loaded.problems.map((p) => ({ ...p, severity: "warning" as const })) };
  const mismatch = recordMismatch(manifest, loaded.value);
  if (mismatch !== null) {
    const line = `the package's record of BFCL ${version} data commits is for Gorilla ${loaded.value.supported} and this data is another revision (${mismatch}); the manifest lists no revisions`;
    return {
      manifest,
      warnings: [problem("revisions-other-data", line, { file: host.committedRevisionsPath(version), severity: "warning" })],
    };
  }
  return { manifest: withRevisions(manifest, loaded.value), warnings: [] };
}

/** Build (or list) the pairs. Never throws on bad input: problems are in the document.
 *
 * @example
 * import { buildPairs } from "twinscore";
 * const doc = await buildPairs({ bfclData: "bfcl-v4" });
 * console.log(doc.funnelLine, doc.items.filter((i) => i.status === "scored").length);
 */
export async function buildPairs(req: PairsRequest): Promise<PairsDocument> {
  const shape = requestShapeProblems(req, pairsShape, '{ bfclData: "bfcl-v4" }');
  if (shape.length > 0) return unbuiltPairs(shape);
  const ctx = contextOf(req);
  const got = obtainManifest(req, ctx);
  if ("problems" in got) return unbuiltPairs([...got.problems]);
  const { manifest } = got;
  const problems: Problem[] = [...got.warnings];
  let written: PairsDocument["written"] = null;
  if (req.writeManifest !== undefined) {
    const file = resolvePath(ctx.cwd, req.writeManifest);
    const w = ctx.host.overwritesInput(file, got.inputs, "--write-manifest") ?? ctx.host.writeManifest(file, manifest);
    if (w.ok) written = { file, pairs: manifest.pairs.length, dropped: manifest.dropped.length };
    else pushAll(problems, w.problems);
  }
  return {
    command: "pairs",
    built: got.built,
    source: manifest.source,
    funnel: manifest.funnel,
    funnelLine: funnelLine(manifest.funnel),
    funnelNotes: funnelNotes(manifest.funnel),
    items: listingRows(manifest),
    written,
    readFrom: got.readFrom,
    problems,
    exitCode: strictExitCode(problems.some((p) => p.severity === "error") ? 2 : 0, problems, req.strict),
  };
}

/** A document that says why no manifest was built (exit 2). */
function unbuiltPairs(problems: Problem[]): PairsDocument {
  return {
    command: "pairs",
    built: false,
    source: null,
    funnel: null,
    funnelLine: "",
    funnelNotes: [],
    items: [],
    written: null,
    readFrom: "",
    problems,
    exitCode: 2,
  };
}
