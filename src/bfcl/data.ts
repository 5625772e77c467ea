/**
 * BFCL multi-turn data, parsed and validated. This module is pure: the IO layer
 * (`src/io/bfcl-data.ts`) lists the directory and reads the files, and hands the text
 * here, so every check (schema, id alignment, prefix) runs the same in tests on small
 * fixtures and on a real BFCL installation. Every problem names the file and, where
 * there is one, the 1-based line.
 */
import { classModules, docFile, multiTurnClasses, type MultiTurnClass } from "./classes.js";
import { createHash } from "node:crypto";
import * as v from "valibot";
import { err, errAll, ok, problem, type Problem, type Result } from "../messages/index.js";

import { answersFile, bfclVersions, questionsFile, type BfclVersion, type MultiTurnCategory } from "./categories.js";

export { multiTurnCategories, questionsFile, answersFile, type BfclVersion, type MultiTurnCategory } from "./categories.js";

export { multiTurnClasses, docFile, type MultiTurnClass } from "./classes.js";

/**
 * Class name → its function-doc file name, as BFCL maps them. The order of a tool list
 * comes from `involved_classes`, and within a class from the order of lines in its file.
 */
export const multiTurnDocFiles = Object.fromEntries(multiTurnClasses.map((c) => [c, `${classModules[c]}.json`])) as Readonly<
  Record<MultiTurnClass, string>
>;

/** One chat message of a question turn. */
export interface ChatMessage {
  readonly role: string;
  readonly content: string;
}

/** One question entry (`BFCL_vN_multi_turn_<category>.json`, one line). */
export interface QuestionEntry {
  readonly id: string;
  /** Turns; each a list of messages. miss_func's holdout turn is `[]`. */
  readonly question: readonly (readonly ChatMessage[])[];
  /** Class name → scenario dict, passed to the executor untouched. */
  readonly initialConfig: Readonly<Record<string, unknown>>;
  readonly path: readonly string[];
  readonly involvedClasses: readonly MultiTurnClass[];
  /** miss_func only: turn index (as BFCL writes it, a string) → names given back on that turn. */
  readonly missedFunction: Readonly<Record<string, readonly string[]>> | null;
  /** Metadata only (no BFCL code reads it). */
  readonly excludedFunction: readonly string[] | null;
  /** 1-based line in the questions file. */
  readonly line: number;
}

/** One reference entry (`possible_answer/…`, one line). */
export interface AnswerEntry {
  readonly id: string;
  /** Per turn, the reference call strings in Python syntax; `[]` marks a turn with no call. */
  readonly groundTruth: readonly (readonly string[])[];
  readonly line: number;
}

/** One function document (`multi_turn_func_doc/*.json`, one line). */
export interface FuncDoc {
  readonly name: string;
  readonly description: string;
  readonly parameters: unknown;
  readonly response: unknown;
  readonly line: number;
}

/** An item left out of a category because its reference cannot be used with its question. */
export interface UnusableItem {
  readonly id: string;
  readonly code: "reference-missing" | "turns-misaligned" | "question-missing";
  /** What is wrong, as a predicate of the id (`has 6 reference turns but its question has 5`). */
  readonly reason: string;
  readonly file: string;
  readonly line: number | null;
  /** The question entry, when there is one (its turns can still be checked against a rollout). */
  readonly question: QuestionEntry | null;
  /** The reference entry, when there is one. */
  readonly answer: AnswerEntry | null;
}

/** One category: questions and references aligned by id (`answers[i]` is the reference of `questions[i]`). */
export interface CategoryData {
  readonly category: MultiTurnCategory;
  readonly questions: readonly QuestionEntry[];
  readonly answers: readonly AnswerEntry[];
  /** Items left out, each with its reason; the caller counts and reports them. */
  readonly unusable: readonly UnusableItem[];
}

/** What the reader returns: the categories asked for and the docs of every class. */
export interface BfclData {
  readonly version: BfclVersion;
  readonly categories: Partial<Readonly<Record<MultiTurnCategory, CategoryData>>>;
  readonly docsByClass: Readonly<Record<MultiTurnClass, readonly FuncDoc[]>>;
  /** sha256 of the files read (relative names and texts, in `requiredFiles` order). */
  readonly inputsSha256: string;
}

const multiTurnFileRe = /^BFCL_(v\d+)_multi_turn_[a-z_]+\.json$/;

/**
 * Which prefix the directory uses, from its top-level file names: the newest version
 * wins (`BFCL_v4_` over `BFCL_v3_`). Any other prefix (or none) is reported, naming what was found, because a
 * directory of another BFCL version would silently pair the wrong items.
 */
export function detectVersion(dirLabel: string, fileNames: readonly string[]): Result<BfclVersion> {
  for (const version of [...bfclVersions].reverse()) {
    if (fileNames.includes(questionsFile(version, "base"))) return ok(version);
  }
  const other = fileNames.filter((n) => multiTurnFileRe.test(n)).sort();
  if (other.length > 0) {
    return err(
      problem(
        "bfcl-prefix",
        `wrong file prefix: found ${other[0]}, expected BFCL_v4_multi_turn_base.json or BFCL_v3_multi_turn_base.json`,
        { file: dirLabel },
      ),
    );
  }
  return err(problem("file-missing", "not a BFCL data directory: no BFCL_v4_multi_turn_base.json (or BFCL_v3_) in it", { file: dirLabel }));
}

const chatMessageSchema = v.object({ role: v.string(), content: v.string() });
const classSchema = v.picklist(multiTurnClasses);
const questionSchema = v.object({
  id: v.string(),
  question: v.array(v.array(chatMessageSchema)),
  initial_config: v.record(v.string(), v.unknown()),
  path: v.array(v.string()),
  involved_classes: v.array(classSchema),
  missed_function: v.optional(v.record(v.string(), v.array(v.string()))),
  excluded_function: v.optional(v.array(v.string())),
});
const answerSchema = v.object({ id: v.string(), ground_truth: v.array(v.array(v.string())) });
const docSchema = v.object({
  name: v.string(),
  description: v.string(),
  parameters: v.unknown(),
  response: v.optional(v.unknown()),
});

function issuePath(issue: v.BaseIssue<unknown>): string {
  const keys = (issue.path ?? []).map((p) => String((p as { key: unknown }).key));
  return keys.length > 0 ? keys.join(".") : "(entry)";
}

/** Parse a JSON Lines text with a schema; blank lines are skipped, every other line must validate. */
function parseJsonLines<S extends v.GenericSchema>(
  text: string,
  file: string,
  schema: S,
): Result<{ value: v.InferOutput<S>; line: number }[]> {
  const out: { value: v.InferOutput<S>; line: number }[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].replace(/\r$/, "");
    if (raw.trim() === "") continue;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      return err(problem("json-malformed", `malformed JSON line: ${why}`, { file, line: i + 1 }));
    }
    const parsed = v.safeParse(schema, json);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      return err(problem("schema", `unexpected entry: ${issuePath(issue)}: ${issue.message}`, { file, line: i + 1 }));
    }
    out.push({ value: parsed.output, line: i + 1 });
  }
  return ok(out);
}

function checkUniqueIds(entries: readonly { id: string; line: number }[], file: string): Problem | null {
  const seen = new Map<string, number>();
  for (const e of entries) {
    const first = seen.get(e.id);
    if (first !== undefined) return problem("duplicate-id", `duplicate id ${e.id} (first on line ${first})`, { file, line: e.line });
    seen.set(e.id, e.line);
  }
  return null;
}

/** Parse a questions file, checking that every id belongs to `category`. */
export function parseQuestions(text: string, file: string, category: MultiTurnCategory): Result<QuestionEntry[]> {
  const parsed = parseJsonLines(text, file, questionSchema);
  if (!parsed.ok) return parsed;
  const entries: QuestionEntry[] = parsed.value.map(({ value, line }) => ({
    id: value.id,
    question: value.question,
    initialConfig: value.initial_config,
    path: value.path,
    involvedClasses: value.involved_classes,
    missedFunction: value.missed_function ?? null,
    excludedFunction: value.excluded_function ?? null,
    line,
  }));
  for (const e of entries) {
    if (categoryOfId(e.id) !== category) {
      return err(problem("id-category", `id ${e.id} does not belong to category ${category}`, { file, line: e.line }));
    }
  }
  const dup = checkUniqueIds(entries, file);
  return dup ? err(dup) : ok(entries);
}

/** Parse a reference (possible_answer) file. */
export function parseAnswers(text: string, file: string): Result<AnswerEntry[]> {
  const parsed = parseJsonLines(text, file, answerSchema);
  if (!parsed.ok) return parsed;
  const entries = parsed.value.map(({ value, line }) => ({ id: value.id, groundTruth: value.ground_truth, line }));
  const dup = checkUniqueIds(entries, file);
  return dup ? err(dup) : ok(entries);
}

/** Parse a function-doc file. */
export function parseFuncDocs(text: string, file: string): Result<FuncDoc[]> {
  const parsed = parseJsonLines(text, file, docSchema);
  if (!parsed.ok) return parsed;
  return ok(
    parsed.value.map(({ value, line }) => ({
      name: value.name,
      description: value.description,
      parameters: value.parameters,
      response: value.response ?? null,
      line,
    })),
  );
}

/**
 * Pair questions with references by id. An item whose reference cannot be used (none with its id, or another
 * turn count) is left out and listed in `unusable` with the reason, and the rest is read. More in this folder's
 * README.md.
 */
export function alignCategory(
  category: MultiTurnCategory,
  questions: readonly QuestionEntry[],
  answers: readonly AnswerEntry[],
  answersFileLabel: string,
): Result<CategoryData> {
  const answerById = new Map(answers.map((a) => [a.id, a]));
  const questionIds = new Set(questions.map((q) => q.id));
  const kept: { q: QuestionEntry; a: AnswerEntry }[] = [];
  const unusable: UnusableItem[] = [];
  for (const q of questions) {
    const a = answerById.get(q.id);
    if (a === undefined) {
      unusable.push({
        id: q.id,
        code: "reference-missing",
        reason: "has no reference",
        file: answersFileLabel,
        line: null,
        question: q,
        answer: null,
      });
    } else if (a.groundTruth.length !== q.question.length) {
      unusable.push({
        id: q.id,
        code: "turns-misaligned",
        reason: `has ${a.groundTruth.length} reference turns but its question has ${q.question.length}`,
        file: answersFileLabel,
        line: a.line,
        question: q,
        answer: a,
      });
    } else {
      kept.push({ q, a });
    }
  }
  for (const a of answers) {
    if (!questionIds.has(a.id)) {
      unusable.push({
        id: a.id,
        code: "question-missing",
        reason: "is a reference without a question",
        file: answersFileLabel,
        line: a.line,
        question: null,
        answer: a,
      });
    }
  }
  return ok({ category, questions: kept.map((x) => x.q), answers: kept.map((x) => x.a), unusable });
}

/** The category of an id, as BFCL computes it (`id.rsplit("_", 1)[0]` minus `multi_turn_`). */
export function categoryOfId(id: string): string {
  const cut = id.lastIndexOf("_");
  const head = cut < 0 ? id : id.slice(0, cut);
  return head.startsWith("multi_turn_") ? head.slice("multi_turn_".length) : head;
}

/** The numeric index of an id (`multi_turn_miss_func_42` → 42), or NaN. */
export function indexOfId(id: string): number {
  const tail = id.slice(id.lastIndexOf("_") + 1);
  return /^\d+$/.test(tail) ? Number(tail) : Number.NaN;
}

/**
 * The item's tool list as BFCL builds it: the doc files of `involved_classes`
 * concatenated in that order, each in file order. BFCL then removes miss_func's held-out
 * functions; twinscore keeps them (a call to a removed function still counts), and
 * reports them separately as `removed`.
 */
export function toolList(
  entry: QuestionEntry,
  docsByClass: Readonly<Record<MultiTurnClass, readonly FuncDoc[]>>,
): { tools: string[]; removed: string[] } {
  const tools = entry.involvedClasses.flatMap((cls) => docsByClass[cls].map((d) => d.name));
  const removed = entry.missedFunction ? Object.values(entry.missedFunction).flat() : [];
  return { tools, removed };
}

/** Every file the reader needs for `categories`, relative to the data directory. */
export function requiredFiles(version: BfclVersion, categories: readonly MultiTurnCategory[]): string[] {
  return [...categories.flatMap((c) => [questionsFile(version, c), answersFile(version, c)]), ...multiTurnClasses.map(docFile)];
}

/**
 * Parse a whole data directory from its file texts. `read(rel)` returns the text of a
 * file relative to the directory, or null when it is missing; `label(rel)` is how the
 * file is named in problems (the path the user gave).
 */
export function parseBfclData(
  version: BfclVersion,
  categories: readonly MultiTurnCategory[],
  read: (rel: string) => string | null,
  label: (rel: string) => string,
): Result<BfclData> {
  const missing = requiredFiles(version, categories).filter((rel) => read(rel) === null);
  if (missing.length > 0) {
    return errAll(missing.map((rel) => problem("file-missing", "file missing", { file: label(rel) })));
  }
  const docsByClass = {} as Record<MultiTurnClass, FuncDoc[]>;
  for (const cls of multiTurnClasses) {
    const docs = parseFuncDocs(read(docFile(cls)) as string, label(docFile(cls)));
    if (!docs.ok) return docs;
    docsByClass[cls] = docs.value;
  }
  const out: Partial<Record<MultiTurnCategory, CategoryData>> = {};
  for (const category of categories) {
    const qRel = questionsFile(version, category);
    const aRel = answersFile(version, category);
    const questions = parseQuestions(read(qRel) as string, label(qRel), category);
    if (!questions.ok) return questions;
    const answers = parseAnswers(read(aRel) as string, label(aRel));
    if (!answers.ok) return answers;
    const aligned = alignCategory(category, questions.value, answers.value, label(aRel));
    if (!aligned.ok) return aligned;
    out[category] = aligned.value;
  }
  const texts = requiredFiles(version, categories).map((rel) => ({ file: rel, text: read(rel) as string }));
  return ok({ version, categories: out, docsByClass, inputsSha256: digestTexts(texts) });
}

/** sha256 over named texts, order-sensitive (length-prefixed), so a manifest records exactly what it was built from. */
export function digestTexts(texts: readonly { readonly file: string; readonly text: string }[]): string {
  const h = createHash("sha256");
  const enc = new TextEncoder();
  for (const t of texts) {
    const bytes = enc.encode(t.text);
    h.update(`${t.file.length}:${t.file}\n${bytes.length}:`).update(bytes);
  }
  return h.digest("hex");
}
