/**
 * The manifest as a file: one deterministic rendering (so a rebuild is byte-identical to
 * the committed file) and a validating parser (so a hand-edited or truncated manifest is
 * reported, not half-used).
 */
import * as v from "valibot";
import { shouldAskCategories, type ShouldAskCategory } from "../bfcl/categories.js";
import { err, ok, problem, type Result } from "../messages/index.js";
import type { Manifest, ManifestPair } from "./types.js";

const category = v.picklist(shouldAskCategories);
const strings = v.array(v.string());
const certification = v.object({
  verdict: v.picklist(["valid", "construction", "compound", "uncertified"]),
  withheld: strings,
  independent: strings,
  gated: strings,
  contentDiffers: strings,
});
const shortSha = v.pipe(v.string(), v.regex(/^[0-9a-f]{8}$/));
const dataCommit = v.object({ commit: shortSha, date: v.string(), subject: v.string() });
const pair = v.object({
  missId: v.string(),
  baseId: v.string(),
  category,
  anchorTurn: v.pipe(v.number(), v.integer(), v.minValue(0)),
  tools: strings,
  removedFunctions: strings,
  goldAnchorCalls: strings,
  goldAnchorKind: v.picklist(["world-changing", "read-only", "login-only"]),
  status: v.picklist(["scored", "excluded"]),
  exclusionReason: v.nullable(v.string()),
  certification: v.nullable(certification),
  anchorRequest: v.object({ base: v.string(), miss: v.string() }),
  differsIn: v.array(v.picklist(["tools", "anchor-request"])),
  turnCount: v.object({ base: v.number(), miss: v.number() }),
  revisions: v.optional(v.object({ base: v.array(shortSha), miss: v.array(shortSha) })),
});
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const byCategory = v.object(Object.fromEntries(shouldAskCategories.map((c) => [c, count])) as Record<ShouldAskCategory, typeof count>);
const funnel = v.object({
  shouldAskItems: count,
  droppedBadKeys: count,
  droppedMisaligned: count,
  droppedMultiAnchor: count,
  droppedShape: count,
  afterStructural: count,
  droppedCallsDiffer: count,
  droppedDialogueDiffers: count,
  contentVerified: count,
  contentVerifiedByCategory: byCategory,
  candidates: count,
  readOnly: count,
  loginOnly: count,
  constructionErrors: count,
  scored: count,
  scoredByCategory: byCategory,
  distinctBaseTwins: count,
  compound: count,
  uncertified: count,
  badKeysNotApplied: count,
  rulingsNotApplied: count,
  restoredBadKeyPairs: count,
  scoredWithBadKeysRestored: count,
  distinctBaseTwinsContentVerified: count,
  distinctBaseAnchorTurnsScored: count,
});
const dropped = v.object({
  missId: v.string(),
  category,
  stage: v.picklist(["bad-key", "misaligned", "multi-anchor", "shape-differs", "calls-differ", "dialogue-differs"]),
  reason: v.string(),
  baseId: v.nullable(v.string()),
  anchorTurn: v.nullable(count),
});
const digest = v.pipe(v.string(), v.regex(/^[0-9a-f]{16}$/));
const item = v.object({
  id: v.string(),
  turns: v.array(v.nullable(digest)),
  content: digest,
  revisions: v.optional(v.array(v.object({ commit: shortSha, turns: v.array(v.nullable(digest)) }))),
});
const unusable = v.object({ id: v.string(), reason: v.string() });
const notApplied = v.object({ id: v.string(), ruling: v.picklist(["bad-key", "construction", "compound"]), contentDiffers: strings });
/** The manifest format this twinscore reads and writes. */
export const manifestFormatVersion = 3;
const manifestSchema = v.object({
  version: v.literal(manifestFormatVersion),
  source: v.object({ bfclVersion: v.picklist(["v3", "v4"]), inputsSha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)) }),
  revisions: v.optional(v.object({ release: dataCommit, supported: shortSha, commits: v.array(dataCommit) })),
  funnel,
  pairs: v.array(pair),
  restoredPairs: v.array(pair),
  dropped: v.array(dropped),
  unusable: v.array(unusable),
  notApplied: v.array(notApplied),
  items: v.array(item),
});

/** JSON with two-space indent, except arrays of primitives, which stay on one line (tool lists are long). */
function renderValue(value: unknown, indent: string): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    if (value.every((x) => x === null || typeof x !== "object")) return `[${value.map((x) => JSON.stringify(x)).join(", ")}]`;
    const inner = indent + "  ";
    return `[\n${value.map((x) => inner + renderValue(x, inner)).join(",\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, x]) => x !== undefined);
    if (entries.length === 0) return "{}";
    const inner = indent + "  ";
    return `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${renderValue(x, inner)}`).join(",\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/**
 * The one rendering of a manifest: two-space JSON, arrays of strings on one line, final
 * newline. Deterministic, so a rebuild compares byte for byte with the committed file.
 */
export function renderManifest(manifest: Manifest): string {
  return renderValue(manifest, "") + "\n";
}

/** Whether two manifests are one: the same object, or loaded twice from files that render the same. */
export function sameManifest(a: Manifest, b: Manifest): boolean {
  return (
    a === b ||
    (a.source.bfclVersion === b.source.bfclVersion &&
      a.source.inputsSha256 === b.source.inputsSha256 &&
      renderManifest(a) === renderManifest(b))
  );
}

/**
 * Parse and validate a manifest text; `file` names it in the problem. `validate: false`
 * checks the format version only: for the package's own manifests, which a test rebuilds
 * byte for byte and validates (the schema check was a tenth of `score`'s time on one model).
 */
export function parseManifest(text: string, file = "manifest.json", opts: { readonly validate?: boolean } = {}): Result<Manifest> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return err(problem("json-malformed", `malformed manifest: ${e instanceof Error ? e.message : String(e)}`, { file }));
  }
  const version = (json as { version?: unknown } | null)?.version;
  if (version !== manifestFormatVersion) {
    return err(
      problem(
        "manifest-version",
        `unsupported manifest version ${JSON.stringify(version)} (this twinscore reads version ${manifestFormatVersion}; rebuild it with twinscore pairs)`,
        { file },
      ),
    );
  }
  if (opts.validate === false) return ok(json as Manifest);
  const parsed = v.safeParse(manifestSchema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = (issue.path ?? []).map((p) => String((p as { key: unknown }).key)).join(".");
    return err(problem("manifest-schema", `invalid manifest at ${where || "(root)"}: ${issue.message}`, { file }));
  }
  const repeated = repeatedPair(parsed.output as Manifest);
  if (repeated !== null)
    return err(
      problem(
        "manifest-pair-repeated",
        `invalid manifest: ${repeated}; each should-ask item is one pair (a pair counted twice doubles its weight in every number)`,
        { file },
      ),
    );
  return ok(parsed.output as Manifest);
}

/** The first should-ask item a manifest lists twice — among its pairs, its restored pairs, or as a pair and a drop — in words; null when none is. */
function repeatedPair(manifest: Manifest): string | null {
  const seen = new Map<string, string>();
  const lists: [string, readonly { missId: string }[]][] = [
    ["pairs", manifest.pairs],
    ["restoredPairs", manifest.restoredPairs],
  ];
  for (const [name, list] of lists) {
    const inList = new Map<string, number>();
    for (let i = 0; i < list.length; i++) {
      const first = inList.get(list[i].missId);
      if (first !== undefined) return `${list[i].missId} is listed twice (${name}.${first} and ${name}.${i})`;
      inList.set(list[i].missId, i);
      if (name === "pairs") seen.set(list[i].missId, `${name}.${i}`);
    }
  }
  for (let i = 0; i < manifest.dropped.length; i++) {
    const pair = seen.get(manifest.dropped[i].missId);
    if (pair !== undefined) return `${manifest.dropped[i].missId} is both a pair (${pair}) and dropped (dropped.${i})`;
  }
  return null;
}

/** The format of the packed manifest (`renderPackedManifest`) this twinscore reads and writes. */
export const packedManifestFormat = 1;

/** The pair as the packed manifest holds it: its tool list is an index into `toolLists`. */
type PackedPair = Omit<ManifestPair, "tools"> & { tools: number };

/** Every character outside ASCII as a `\u` escape: in JSON they can only occur in strings, where the escape means the same. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * The packed form of a manifest, which the build writes next to the bundle (tools/pack-manifests.mjs) and
 * `score` reads at start instead: the same manifest, stored so that it parses in a few milliseconds (each tool
 * list once, ASCII only). `sourceBytes` is the byte length of the file it was packed from. More in this
 * folder's README.md.
 */
export function renderPackedManifest(manifest: Manifest, sourceBytes: number): string {
  const toolLists: (readonly string[])[] = [];
  const indexOfList = new Map<string, number>();
  const pack = (pairs: readonly ManifestPair[]): PackedPair[] =>
    pairs.map((p) => {
      const key = JSON.stringify(p.tools);
      let index = indexOfList.get(key);
      if (index === undefined) {
        index = toolLists.length;
        indexOfList.set(key, index);
        toolLists.push(p.tools);
      }
      return { ...p, tools: index };
    });
  const packed = { ...manifest, pairs: pack(manifest.pairs), restoredPairs: pack(manifest.restoredPairs) };
  return `${asciiJson({ packed: packedManifestFormat, sourceBytes, toolLists, manifest: packed })}\n`;
}

/**
 * Parse a packed manifest back into the manifest it was made from (pairs with equal tool
 * lists share one array). `file` names it in a problem; a packed file is a build product,
 * so the caller falls back to the committed file on any problem.
 */
export function parsePackedManifest(text: string, file: string): Result<{ readonly manifest: Manifest; readonly sourceBytes: number }> {
  let json: {
    packed?: unknown;
    sourceBytes?: unknown;
    toolLists?: unknown;
    manifest?: { version?: unknown; pairs?: unknown; restoredPairs?: unknown };
  };
  try {
    json = JSON.parse(text) as typeof json;
  } catch (e) {
    return err(problem("json-malformed", `malformed packed manifest: ${e instanceof Error ? e.message : String(e)}`, { file }));
  }
  const { packed, sourceBytes, toolLists, manifest } = json ?? {};
  if (
    packed !== packedManifestFormat ||
    typeof sourceBytes !== "number" ||
    !Array.isArray(toolLists) ||
    manifest?.version !== manifestFormatVersion
  ) {
    return err(
      problem(
        "manifest-version",
        `not a packed manifest of format ${packedManifestFormat} (manifest version ${manifestFormatVersion}); rebuild with npm run build`,
        { file },
      ),
    );
  }
  for (const pairs of [manifest.pairs, manifest.restoredPairs]) {
    if (!Array.isArray(pairs)) return err(problem("manifest-schema", "packed manifest without its pair lists", { file }));
    for (const p of pairs as { tools: unknown }[]) {
      const list = typeof p.tools === "number" ? (toolLists[p.tools] as unknown) : undefined;
      if (!Array.isArray(list))
        return err(problem("manifest-schema", `packed manifest: tool list ${JSON.stringify(p.tools)} does not exist`, { file }));
      p.tools = list;
    }
  }
  return ok({ manifest: manifest as unknown as Manifest, sourceBytes });
}
