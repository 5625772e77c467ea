/**
 * The pair builder: from BFCL's base, miss_func and miss_param data and the paper's rulings files, the
 * twin-pair manifest exactly as §4.2 and Appendix D define it. More in this folder's README.md.
 */
import { itemId, scoredResultCategories, shouldAskCategories } from "../bfcl/categories.js";
import {
  digestTexts,
  indexOfId,
  toolList,
  type AnswerEntry,
  type BfclData,
  type ChatMessage,
  type QuestionEntry,
  type UnusableItem,
} from "../bfcl/data.js";
import { kindOf } from "../catalog/catalog.js";
import { classifyGoldCall, type GoldCallClass } from "../catalog/gold-call.js";
import type { WorldChangingOptions } from "../catalog/types.js";
import { pushAll, err, errAll, ok, problem, type Problem, type Result } from "../messages/index.js";
import { parseBadKeys, parseCertifiedContent, parseRulings, type BadKey, type NamedText, type Ruling } from "./certification.js";
import { contentDifferences, contentDigest, itemContent, turnDigests, type ItemContent } from "./digest.js";
import type {
  Certification,
  DroppedItem,
  Funnel,
  GoldAnchorKind,
  Manifest,
  ManifestItem,
  ManifestPair,
  RulingNotApplied,
  ShouldAskCategory,
  UnusableEntry,
} from "./types.js";

/** The two should-ask categories, in manifest order. */
export { shouldAskCategories };

/** The exclusion reasons, exactly as the release writes them. */
export const exclusionReasons = {
  readOnly: "gold anchor turn is read-only",
  loginOnly: "gold anchor turn is login only",
  construction: "anchor certification: construction error",
} as const;

/** What the builder reads. */
export interface PairBuildInput {
  readonly data: BfclData;
  readonly badKeys: NamedText;
  readonly rulings: NamedText;
  /** `certified-content.tsv`: the content of the items the rulings were made on. */
  readonly certifiedContent: NamedText;
}

/** Builder options: the login sensitivity (the default manifest counts no login). */
export interface PairBuildOptions {
  readonly worldChanging: WorldChangingOptions;
}

type Verdict =
  { kind: "pair"; anchorTurn: number } | { kind: "drop"; stage: DroppedItem["stage"]; reason: string; anchorTurn: number | null };

const sameTurn = (a: readonly ChatMessage[], b: readonly ChatMessage[]) =>
  a.length === b.length && a.every((m, i) => m.role === b[i].role && m.content === b[i].content);

/** Run the structural and content filters (everything but the bad-key list) on one item. */
function pairingVerdict(
  miss: QuestionEntry,
  missAnswer: AnswerEntry,
  base: { q: QuestionEntry; a: AnswerEntry } | undefined,
  baseId: string,
): Verdict {
  const empty = missAnswer.groundTruth.flatMap((turn, i) => (turn.length === 0 ? [i] : []));
  if (empty.length !== 1) {
    const reason =
      empty.length === 0 ? "no reference turn is empty" : `${empty.length} reference turns are empty (turns ${empty.join(", ")})`;
    return { kind: "drop", stage: "multi-anchor", reason, anchorTurn: null };
  }
  const anchorTurn = empty[0];
  if (!base) return { kind: "drop", stage: "shape-differs", reason: `no base item ${baseId}`, anchorTurn };
  const rest = missAnswer.groundTruth.filter((_, i) => i !== anchorTurn);
  const baseTurns = base.a.groundTruth;
  const shape = (turns: readonly (readonly string[])[]) => `[${turns.map((t) => t.length).join(",")}]`;
  if (rest.length !== baseTurns.length || rest.some((t, i) => t.length !== baseTurns[i].length)) {
    return {
      kind: "drop",
      stage: "shape-differs",
      reason: `calls per turn without the empty turn ${shape(rest)} differ from ${baseId} ${shape(baseTurns)}`,
      anchorTurn,
    };
  }
  const callTurn = rest.findIndex((t, i) => t.some((c, j) => c !== baseTurns[i][j]));
  if (callTurn >= 0) {
    return {
      kind: "drop",
      stage: "calls-differ",
      reason: `reference call strings differ from ${baseId} on base turn ${callTurn}`,
      anchorTurn,
    };
  }
  for (let t = 0; t < anchorTurn; t++) {
    if (!sameTurn(miss.question[t], base.q.question[t])) {
      return { kind: "drop", stage: "dialogue-differs", reason: `user turn ${t} before the anchor differs from ${baseId}`, anchorTurn };
    }
  }
  return { kind: "pair", anchorTurn };
}

/**
 * Why BFCL cannot run a miss_func item, or null: every turn `missed_function` gives a
 * function back on must exist and have no user message, or BFCL stops the item at
 * inference ("Holdout turn should not have user message.") and no rollout has it.
 */
function holdoutProblem(miss: QuestionEntry): string | null {
  for (const key of Object.keys(miss.missedFunction ?? {})) {
    const turn = /^\d+$/.test(key) ? Number(key) : Number.NaN;
    if (!(turn < miss.question.length))
      return `missed_function gives functions back on turn ${key}, which its ${miss.question.length}-turn question does not have`;
    if (miss.question[turn].length > 0) {
      return `missed_function gives functions back on turn ${key}, whose question is not empty (BFCL stops the item: "Holdout turn should not have user message.")`;
    }
  }
  return null;
}

const turnText = (turn: readonly ChatMessage[]) => turn.map((m) => m.content).join("\n");

function goldAnchorKind(classes: readonly GoldCallClass[]): GoldAnchorKind {
  if (classes.includes("world-changing")) return "world-changing";
  return classes.includes("login") ? "login-only" : "read-only";
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join("\u0000") === [...b].sort().join("\u0000");

/**
 * Whether the hand rulings cover items: the fields of each that differ from the
 * certified content, as `<twin>.<field>` (empty: every item equals what was certified).
 */
type CertifiedCheck = (twins: readonly { twin: "miss" | "base"; id: string }[]) => string[];

/** Each reference call of the anchor classified by the catalog; a call it cannot read counts as a read, with a problem. */
function goldCallClasses(calls: readonly string[], where: string, problems: Problem[]) {
  return calls.map((call) => {
    const c = classifyGoldCall(call, { countLogin: false });
    if (!c.ok) {
      pushAll(
        problems,
        c.problems.map((p) => ({ ...p, message: `${where}: ${p.message}` })),
      );
      return "read" as const;
    }
    if (c.value === "unknown") problems.push(problem("gold-unknown-function", `${where}: ${call.split("(")[0]} is not in the catalog`));
    return c.value;
  });
}

/** A candidate pair's certification: the hand ruling when both twins are the certified content, else uncertified. */
function certificationOf(
  missId: string,
  baseId: string,
  removed: readonly string[],
  rulings: ReadonlyMap<string, Ruling>,
  differs: CertifiedCheck,
): Certification {
  const contentDiffers = differs([
    { twin: "miss", id: missId },
    { twin: "base", id: baseId },
  ]);
  const ruling = contentDiffers.length === 0 ? rulings.get(missId) : undefined;
  return {
    verdict: contentDiffers.length > 0 ? "uncertified" : (ruling?.verdict ?? "valid"),
    withheld: removed,
    independent: ruling ? [...ruling.independent] : [],
    gated: ruling ? [...ruling.gated] : [],
    contentDiffers,
  };
}

/** Build one content-verified pair: anchor kind, candidacy, certification, status. */
function makePair(
  category: ShouldAskCategory,
  miss: QuestionEntry,
  base: { q: QuestionEntry; a: AnswerEntry },
  anchorTurn: number,
  data: BfclData,
  rulings: ReadonlyMap<string, Ruling>,
  differs: CertifiedCheck,
  options: PairBuildOptions,
  problems: Problem[],
): ManifestPair {
  const goldAnchorCalls = [...base.a.groundTruth[anchorTurn]];
  const kind = goldAnchorKind(goldCallClasses(goldAnchorCalls, `${base.q.id} turn ${anchorTurn}`, problems));
  const { tools, removed } = toolList(miss, data.docsByClass);
  const candidate = kind === "world-changing" || (kind === "login-only" && options.worldChanging.countLogin);
  const certification = candidate ? certificationOf(miss.id, base.q.id, removed, rulings, differs) : null;
  let exclusionReason: string | null = null;
  if (!candidate) exclusionReason = kind === "login-only" ? exclusionReasons.loginOnly : exclusionReasons.readOnly;
  else if (certification?.verdict === "construction") exclusionReason = exclusionReasons.construction;
  return {
    missId: miss.id,
    baseId: base.q.id,
    category,
    anchorTurn,
    tools,
    removedFunctions: removed,
    goldAnchorCalls,
    goldAnchorKind: kind,
    status: exclusionReason === null ? "scored" : "excluded",
    exclusionReason,
    certification,
    anchorRequest: { base: turnText(base.q.question[anchorTurn]), miss: turnText(miss.question[anchorTurn]) },
    differsIn: [
      ...(removed.length > 0 ? (["tools"] as const) : []),
      ...(sameTurn(miss.question[anchorTurn], base.q.question[anchorTurn]) ? [] : (["anchor-request"] as const)),
    ],
    turnCount: { base: base.q.question.length, miss: miss.question.length },
  };
}

/** Check each ruling against the pairs: a candidate, at its anchor, catalogued steps, withholding what the data removes. */
function checkRulings(rulings: readonly Ruling[], pairs: readonly ManifestPair[], file: string): Problem[] {
  const byId = new Map(pairs.map((p) => [p.missId, p]));
  const problems: Problem[] = [];
  for (const r of rulings) {
    const where = { file, line: r.line };
    const p = byId.get(r.missId);
    if (!p || p.certification === null) {
      problems.push(problem("ruling-not-candidate", `${r.missId} is not a candidate pair (gold anchor turn world-changing)`, where));
    } else if (p.anchorTurn !== r.anchorTurn) {
      problems.push(problem("ruling-anchor", `${r.missId}: ruling says anchor turn ${r.anchorTurn}, the data says ${p.anchorTurn}`, where));
    } else if ([...r.independent, ...r.gated].some((name) => kindOf(name) === undefined)) {
      const unknown = [...r.independent, ...r.gated].filter((name) => kindOf(name) === undefined);
      problems.push(problem("ruling-function", `${r.missId}: ${unknown.join(", ")} is not a catalogued function`, where));
    } else if (!sameSet(p.removedFunctions, r.withheld)) {
      problems.push(
        problem(
          "ruling-withheld",
          `${r.missId}: ruling withholds ${r.withheld.join(";") || "a value"}, the data removes ${p.removedFunctions.join(";") || "no function"}`,
          where,
        ),
      );
    }
  }
  return problems;
}

function funnelOf(
  shouldAskItems: number,
  pairs: readonly ManifestPair[],
  dropped: readonly DroppedItem[],
  restored: readonly ManifestPair[],
  notApplied: readonly RulingNotApplied[],
): Funnel {
  const count = <T>(xs: readonly T[], f: (x: T) => boolean) => xs.filter(f).length;
  const byCat = (xs: readonly ManifestPair[]) =>
    Object.fromEntries(shouldAskCategories.map((c) => [c, count(xs, (p) => p.category === c)])) as Record<ShouldAskCategory, number>;
  const drops = (stage: DroppedItem["stage"]) => count(dropped, (d) => d.stage === stage);
  const candidates = pairs.filter((p) => p.certification !== null);
  const scored = pairs.filter((p) => p.status === "scored");
  const droppedBadKeys = drops("bad-key");
  const droppedMisaligned = drops("misaligned");
  const droppedMultiAnchor = drops("multi-anchor");
  const droppedShape = drops("shape-differs");
  return {
    shouldAskItems,
    droppedBadKeys,
    droppedMisaligned,
    droppedMultiAnchor,
    droppedShape,
    afterStructural: shouldAskItems - droppedBadKeys - droppedMisaligned - droppedMultiAnchor - droppedShape,
    droppedCallsDiffer: drops("calls-differ"),
    droppedDialogueDiffers: drops("dialogue-differs"),
    contentVerified: pairs.length,
    contentVerifiedByCategory: byCat(pairs),
    candidates: candidates.length,
    readOnly: count(pairs, (p) => p.certification === null && p.goldAnchorKind === "read-only"),
    loginOnly: count(pairs, (p) => p.certification === null && p.goldAnchorKind === "login-only"),
    constructionErrors: count(candidates, (p) => p.certification?.verdict === "construction"),
    scored: scored.length,
    scoredByCategory: byCat(scored),
    distinctBaseTwins: new Set(scored.map((p) => p.baseId)).size,
    compound: count(candidates, (p) => p.certification?.verdict === "compound"),
    uncertified: count(candidates, (p) => p.certification?.verdict === "uncertified"),
    badKeysNotApplied: count(notApplied, (n) => n.ruling === "bad-key"),
    rulingsNotApplied: count(notApplied, (n) => n.ruling !== "bad-key"),
    restoredBadKeyPairs: restored.length,
    scoredWithBadKeysRestored: scored.length + restored.length,
    distinctBaseTwinsContentVerified: new Set(pairs.map((p) => p.baseId)).size,
    distinctBaseAnchorTurnsScored: new Set(scored.map((p) => `${p.baseId}\u0000${p.anchorTurn}`)).size,
  };
}

/** The category order of the manifest's item list and of `certified-content.tsv`. */
const itemCategories = scoredResultCategories;

/**
 * Every item of the three categories with its content, in category then index order —
 * including items left out of the pairs for an unusable reference, whose question turns
 * can still be checked against rollouts.
 */
export function itemContents(data: BfclData): { id: string; q: QuestionEntry; content: ItemContent }[] {
  const out: { id: string; q: QuestionEntry; content: ItemContent }[] = [];
  for (const category of itemCategories) {
    const cat = data.categories[category];
    if (!cat) continue;
    const entries = [
      ...cat.questions.map((q, i) => ({ q, a: cat.answers[i] as AnswerEntry | null })),
      ...cat.unusable.flatMap((u) => (u.question === null ? [] : [{ q: u.question, a: u.answer }])),
    ].sort((x, y) => indexOfId(x.q.id) - indexOfId(y.q.id));
    for (const { q, a } of entries) out.push({ id: q.id, q, content: itemContent(q, a) });
  }
  return out;
}

/**
 * Build the manifest. Fails (with every problem found) when the data lacks a category,
 * when a reference call cannot be read or names an unknown function, or when a ruling
 * that applies does not match the data; a manifest built on a disagreement would score
 * the wrong pairs. An item whose reference cannot be used is dropped with its reason.
 */
export function buildManifest(
  input: PairBuildInput,
  options: PairBuildOptions = { worldChanging: { countLogin: false } },
): Result<Manifest> {
  const lists = parseCertificationLists(input);
  if (!lists.ok) return lists;
  const { data } = input;
  const baseCat = data.categories.base;
  if (!baseCat) return err(problem("category-missing", "the base category was not read"));
  for (const category of shouldAskCategories) {
    if (!data.categories[category]) return err(problem("category-missing", `the ${category} category was not read`));
  }
  const contents = itemContents(data);
  const contentById = new Map(contents.map((c) => [c.id, c.content]));
  const certified = lists.value.certified;
  const differs: CertifiedCheck = (twins) =>
    twins.flatMap(({ twin, id }) => {
      const mine = contentById.get(id);
      const theirs = certified.get(id);
      if (mine === undefined || theirs === undefined) return [`${twin}.absent`];
      return contentDifferences(theirs, mine).map((f) => `${twin}.${f}`);
    });
  const placed: PlacedItems = { shouldAskItems: 0, problems: [], pairs: [], restoredPairs: [], dropped: [], notApplied: [] };
  const context: PlacementContext = {
    data,
    options,
    differs,
    badKeys: lists.value.badKeys,
    rulings: lists.value.rulings,
    baseById: new Map(baseCat.questions.map((q, i) => [q.id, { q, a: baseCat.answers[i] }])),
    unusableBase: new Map(baseCat.unusable.map((u) => [u.id, u])),
  };
  for (const category of shouldAskCategories) placeCategory(context, category, placed);
  const applied = appliedRulings(lists.value.rulingList, differs, placed.notApplied);
  pushAll(placed.problems, checkRulings(applied, placed.pairs, input.rulings.file));
  if (placed.problems.length > 0) return errAll(placed.problems);
  return ok(assembleManifest(input, contents, placed));
}

/** The three certification lists, parsed: the bad keys and rulings by item id, the certified contents. */
function parseCertificationLists(input: PairBuildInput): Result<{
  badKeys: Map<string, BadKey>;
  rulingList: readonly Ruling[];
  rulings: Map<string, Ruling>;
  certified: Map<string, ItemContent>;
}> {
  const badKeysParsed = parseBadKeys(input.badKeys);
  if (!badKeysParsed.ok) return badKeysParsed;
  const rulingsParsed = parseRulings(input.rulings);
  if (!rulingsParsed.ok) return rulingsParsed;
  const certifiedParsed = parseCertifiedContent(input.certifiedContent);
  if (!certifiedParsed.ok) return certifiedParsed;
  return ok({
    badKeys: new Map<string, BadKey>(badKeysParsed.value.map((b) => [b.id, b])),
    rulingList: rulingsParsed.value,
    rulings: new Map(rulingsParsed.value.map((r) => [r.missId, r])),
    certified: certifiedParsed.value,
  });
}

/** What placing the should-ask items needs: the data, the lists, the base twins. */
interface PlacementContext {
  readonly data: BfclData;
  readonly options: PairBuildOptions;
  readonly differs: CertifiedCheck;
  readonly badKeys: Map<string, BadKey>;
  readonly rulings: Map<string, Ruling>;
  readonly baseById: Map<string, { q: QuestionEntry; a: AnswerEntry }>;
  readonly unusableBase: Map<string, UnusableItem>;
}

/** Where each should-ask item went: a pair, a restored pair, dropped, or a list entry not applied. */
interface PlacedItems {
  shouldAskItems: number;
  readonly problems: Problem[];
  readonly pairs: ManifestPair[];
  readonly restoredPairs: ManifestPair[];
  readonly dropped: DroppedItem[];
  readonly notApplied: RulingNotApplied[];
}

/** Place every item of one should-ask category, in index order (unusable ones included). */
function placeCategory(context: PlacementContext, category: ShouldAskCategory, placed: PlacedItems): void {
  const cat = context.data.categories[category]!;
  const unusableMiss = new Map(cat.unusable.filter((u) => u.code !== "question-missing").map((u) => [u.id, u]));
  const answerOf = new Map(cat.questions.map((q, i) => [q.id, cat.answers[i]]));
  const ids = [...cat.questions.map((q) => q.id), ...unusableMiss.keys()].sort((x, y) => indexOfId(x) - indexOfId(y));
  const questionOf = new Map(cat.questions.map((q) => [q.id, q]));
  for (const missId of ids) {
    placed.shouldAskItems++;
    placeMissItem(context, category, missId, questionOf.get(missId), answerOf.get(missId), unusableMiss.get(missId), placed);
  }
}

/** One should-ask item: dropped as misaligned, on the bad-key list, by its pairing verdict, or paired with its base twin. */
function placeMissItem(
  context: PlacementContext,
  category: ShouldAskCategory,
  missId: string,
  miss: QuestionEntry | undefined,
  answer: AnswerEntry | undefined,
  missUnusable: UnusableItem | undefined,
  placed: PlacedItems,
): void {
  const { data, rulings, differs, options } = context;
  const { dropped, notApplied, problems } = placed;
  const baseId = itemId("base", indexOfId(missId));
  const base = context.baseById.get(baseId);
  const badKey = context.badKeys.get(missId);
  const baseUnusable = context.unusableBase.get(baseId);
  const misaligned = missUnusable
    ? `${missId} ${missUnusable.reason}`
    : baseUnusable
      ? `base twin ${baseId} ${baseUnusable.reason}`
      : holdoutProblem(miss!);
  if (misaligned !== null || miss === undefined) {
    dropped.push({
      missId,
      category,
      stage: "misaligned",
      reason: misaligned ?? "no question",
      baseId: base ? baseId : null,
      anchorTurn: null,
    });
    if (badKey) notApplied.push({ id: missId, ruling: "bad-key", contentDiffers: differs([{ twin: "miss", id: missId }]) });
    return;
  }
  const verdict = pairingVerdict(miss, answer!, base, baseId);
  if (badKey && placeBadKeyItem(context, category, miss, base, baseId, verdict, badKey, placed)) return;
  if (verdict.kind === "drop") {
    dropped.push({
      missId,
      category,
      stage: verdict.stage,
      reason: verdict.reason,
      baseId: base ? baseId : null,
      anchorTurn: verdict.anchorTurn,
    });
    return;
  }
  placed.pairs.push(makePair(category, miss, base!, verdict.anchorTurn, data, rulings, differs, options, problems));
}

/**
 * An item on the bad-key list: dropped when its content is the certified one (its pair, if
 * scored, kept as restored); else the ruling is not applied and the item is placed as any other.
 * Whether it was placed here.
 */
function placeBadKeyItem(
  context: PlacementContext,
  category: ShouldAskCategory,
  miss: QuestionEntry,
  base: { q: QuestionEntry; a: AnswerEntry } | undefined,
  baseId: string,
  verdict: ReturnType<typeof pairingVerdict>,
  badKey: { readonly family: string },
  placed: PlacedItems,
): boolean {
  const { data, rulings, differs, options } = context;
  const badKeyDiffers = differs([{ twin: "miss", id: miss.id }]);
  if (badKeyDiffers.length > 0) {
    placed.notApplied.push({ id: miss.id, ruling: "bad-key", contentDiffers: badKeyDiffers });
    return false;
  }
  placed.dropped.push({
    missId: miss.id,
    category,
    stage: "bad-key",
    reason: `on the bad-key list (family ${badKey.family})`,
    baseId: base ? baseId : null,
    anchorTurn: verdict.anchorTurn,
  });
  if (verdict.kind === "pair" && base) {
    const p = makePair(category, miss, base, verdict.anchorTurn, data, rulings, differs, options, placed.problems);
    if (p.status === "scored") placed.restoredPairs.push(p);
  }
  return true;
}

/** The rulings whose twins' content is the certified one; the others are listed as not applied. */
function appliedRulings(rulingList: readonly Ruling[], differs: CertifiedCheck, notApplied: RulingNotApplied[]): Ruling[] {
  const applied: Ruling[] = [];
  for (const r of rulingList) {
    const rulingDiffers = differs([
      { twin: "miss", id: r.missId },
      { twin: "base", id: itemId("base", indexOfId(r.missId)) },
    ]);
    if (rulingDiffers.length === 0) applied.push(r);
    else notApplied.push({ id: r.missId, ruling: r.verdict, contentDiffers: rulingDiffers });
  }
  return applied;
}

/** The manifest document: its sources' digest, the funnel, the placed items, the unusable ones, every item's digests. */
function assembleManifest(input: PairBuildInput, contents: ReturnType<typeof itemContents>, placed: PlacedItems): Manifest {
  const { data } = input;
  const { pairs, restoredPairs, dropped, notApplied } = placed;
  const unusable: UnusableEntry[] = itemCategories.flatMap((c) =>
    [...data.categories[c]!.unusable].sort((x, y) => indexOfId(x.id) - indexOfId(y.id)).map((u) => ({ id: u.id, reason: u.reason })),
  );
  const items: ManifestItem[] = contents.map(({ id, q, content }) => ({
    id,
    turns: turnDigests(q.question),
    content: contentDigest(content),
  }));
  return {
    version: 3,
    source: {
      bfclVersion: data.version,
      inputsSha256: digestTexts([
        { file: "bfcl", text: data.inputsSha256 },
        { file: "bad-keys.tsv", text: input.badKeys.text },
        { file: "rulings.tsv", text: input.rulings.text },
        { file: "certified-content.tsv", text: input.certifiedContent.text },
      ]),
    },
    funnel: funnelOf(placed.shouldAskItems, pairs, dropped, restoredPairs, notApplied),
    pairs,
    restoredPairs,
    dropped,
    unusable,
    notApplied,
    items,
  };
}
