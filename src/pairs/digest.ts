/**
 * Fingerprints of BFCL items. Two uses: deciding whether an item is the very item the hand rulings were made
 * on (its content, field by field), and checking that a rollout was generated on the item a manifest names
 * (its question turns, as BFCL records them in `inference_log`). More in this folder's README.md.
 */
import * as crypto from "node:crypto";
import type { AnswerEntry, ChatMessage, QuestionEntry } from "../bfcl/data.js";

/** Hex digits kept of each sha256. */
export const digestLength = 16;

/**
 * Node's one-shot hash where it has one (20.12 and later): half the time of a `createHash`
 * object for a short text, and the data check hashes one turn per result line.
 */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: "hex") => string }).hash;

/** Digests already computed, by text: the first turn of a miss_func or miss_param item is most often its base item's. Bounded, as the texts come from the files read. */
const digestOfText = new Map<string, string>();
const MAX_REMEMBERED = 4096;

/** The short sha256 of a text. */
export function shortDigest(text: string): string {
  const known = digestOfText.get(text);
  if (known !== undefined) return known;
  const hex =
    oneShotHash !== undefined ? oneShotHash("sha256", text, "hex") : crypto.createHash("sha256").update(text, "utf8").digest("hex");
  const digest = hex.slice(0, digestLength);
  if (digestOfText.size >= MAX_REMEMBERED) digestOfText.clear();
  digestOfText.set(text, digest);
  return digest;
}

/** JSON with object keys sorted at every level, so equal values give equal text whatever the key order in the file. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * The text a turn's digest covers: the contents of its user messages joined by a blank
 * line (how BFCL's handlers merge consecutive user messages), or null for a turn with no
 * user message (miss_func's holdout turn, where BFCL writes its own prompt instead).
 */
export function turnText(messages: readonly ChatMessage[]): string | null {
  const user = messages.filter((m) => m.role === "user").map((m) => m.content);
  return user.length === 0 ? null : user.join("\n\n");
}

/** One digest per question turn (null where the turn has no user message). */
export function turnDigests(question: readonly (readonly ChatMessage[])[]): (string | null)[] {
  return question.map((turn) => {
    const text = turnText(turn);
    return text === null ? null : shortDigest(text);
  });
}

/**
 * The fields of an item that "equal" compares, in a fixed order: everything the item itself tells BFCL. Not
 * compared: metadata no BFCL code reads (`path`, `excluded_function`) and the function docs, which belong to a
 * class rather than to the item. More in this folder's README.md.
 */
export const contentFields = ["question", "initial_config", "involved_classes", "missed_function", "reference"] as const;
export type ContentField = (typeof contentFields)[number];

/** An item's content, one digest per field. */
export type ItemContent = Readonly<Record<ContentField, string>>;

/** Digest every compared field of an item (its question entry and its reference; null when it has none). */
export function itemContent(q: QuestionEntry, a: AnswerEntry | null): ItemContent {
  const fields: Record<ContentField, unknown> = {
    question: q.question.map((turn) => turn.map((m) => ({ role: m.role, content: m.content }))),
    initial_config: q.initialConfig,
    involved_classes: q.involvedClasses,
    missed_function: q.missedFunction,
    reference: a?.groundTruth ?? null,
  };
  return Object.fromEntries(contentFields.map((f) => [f, shortDigest(canonicalJson(fields[f]))])) as ItemContent;
}

/** One digest over all compared fields: equal exactly when every field's digest is equal. */
export function contentDigest(content: ItemContent): string {
  return shortDigest(contentFields.map((f) => content[f]).join(" "));
}

/** The fields whose digests differ, in `contentFields` order (empty: the items are equal). */
export function contentDifferences(a: ItemContent, b: ItemContent): ContentField[] {
  return contentFields.filter((f) => a[f] !== b[f]);
}

const manifestDigests = new WeakMap<object, string>();

/** The sha256 of a manifest's canonical JSON (key order does not matter): what `run.json` and every JSON document record of the pairs they used. */
export function manifestSha256(manifest: object): string {
  const known = manifestDigests.get(manifest);
  if (known !== undefined) return known;
  const hex = crypto.createHash("sha256").update(canonicalJson(manifest), "utf8").digest("hex");
  manifestDigests.set(manifest, hex);
  return hex;
}
