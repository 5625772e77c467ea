/**
 * `twinscore help TOPIC`: the long explanations, one topic each, so a command's `--help`
 * stays a short synopsis and its options. Each command's help ends with one line naming
 * its topics (`commandHelpFooter`); `twinscore help` lists them all. This module holds
 * only the names and summaries (every command's help needs them); the texts are in
 * `help-texts.ts`, loaded when a topic is asked for.
 */

/** Every topic, in the order `twinscore help` lists them, with a one-line summary. */
export const helpTopics = [
  { name: "what-counts", summary: "twin pairs, the anchor turn, act / hold / decision, what counts as a call" },
  { name: "columns", summary: "the decision table's columns and its 95% interval" },
  { name: "readings", summary: "side statuses, --reading decided|release, --max-undecided, pair sets, --sensitivity" },
  { name: "per-item", summary: "the --per-item CSV: one row per model and pair, every column" },
  { name: "official", summary: "--scores: BFCL's own verdict on the same items" },
  { name: "aligned", summary: "--bfcl-data: asked, then did it, and the skipped turn scored" },
  { name: "layouts", summary: "the result trees every command reads: layouts, runs, links, copies" },
  { name: "decoders", summary: "how each model's steps are decoded; every decoder and its BFCL handlers" },
  { name: "agreement", summary: "check: re-scoring with the TypeScript checker, the agreement columns" },
  { name: "empty-turns", summary: "check --score-empty-turns: the turns BFCL's checker skips" },
  { name: "comparison", summary: "compare: the paired measures, McNemar, the interval, the injection check" },
  { name: "history", summary: "exact twins: reading runs of run --history reference, and why their official score means nothing" },
  { name: "page", summary: "report: what the HTML page shows" },
  { name: "expected", summary: "verify: the expected-numbers file, tolerances, SKIP" },
  { name: "labels", summary: "judge: the five labels and the summary columns" },
  { name: "pairing", summary: "pairs: how twin pairs are built and certified; the funnel's columns" },
  { name: "generation", summary: "run: BFCL's generation loop, items, resume, retries, prompting mode" },
  { name: "interactive", summary: "run --user-sim llm: a simulated user answers the question asked" },
  { name: "formats", summary: "--format table|json|csv|markdown, and the form of messages on stderr" },
  { name: "exit-codes", summary: "every command's exit codes" },
  { name: "speed", summary: "--threads defaults and the V8 settings" },
] as const;

/** A topic's name. */
export type TopicName = (typeof helpTopics)[number]["name"];

/** Whether a word names a topic. */
export function isTopic(name: string): name is TopicName {
  return helpTopics.some((t) => t.name === name);
}

/** The width topics are printed in, as commander prints `--help`. */
const WIDTH = 100;

/**
 * A line longer than the width, broken at spaces. An indented line continues under its
 * meaning (`  header   meaning`: after the first gap of two spaces), else under itself.
 */
function wrapLine(line: string): string[] {
  if (line.length <= WIDTH) return [line];
  // the column a continuation starts in: a meaning's (after a gap of two spaces early in the line), else the line's own
  const gap = /^(\s+\S.{0,28}?\s{2,})\S/.exec(line);
  const indent = " ".repeat(gap !== null ? gap[1].length : (/^\s*/.exec(line)?.[0].length ?? 0));
  const out: string[] = [];
  let rest = line;
  while (rest.length > WIDTH) {
    const at = rest.lastIndexOf(" ", WIDTH);
    if (at <= indent.length) break; // one word longer than the width: left whole
    out.push(rest.slice(0, at));
    rest = indent + rest.slice(at + 1);
  }
  out.push(rest);
  return out;
}

/**
 * A topic's text as printed: each paragraph of prose (lines that start at the margin) flowed
 * to the help width, each indented line (a list, a column's meaning) wrapped on its own.
 */
export async function topicText(name: TopicName): Promise<string> {
  const text = (await import("./help-texts.js")).topicTexts[name]();
  const lines: string[] = [];
  let prose: string[] = [];
  const flush = () => {
    if (prose.length > 0) lines.push(...wrapLine(prose.join(" ")));
    prose = [];
  };
  for (const line of text.split("\n")) {
    if (line !== "" && !/^\s/.test(line)) prose.push(line);
    else {
      flush();
      lines.push(...wrapLine(line));
    }
  }
  flush();
  return lines.join("\n");
}

/** The last line of a command's `--help`: the topics that explain it (commander ends the help with the newline). */
export function commandHelpFooter(topics: readonly TopicName[]): string {
  return `\n\nMore: twinscore help ${topics.join(", ")}`;
}

/** What `twinscore help` prints: every topic with its summary. */
export function topicList(): string {
  const width = Math.max(...helpTopics.map((t) => t.name.length));
  return (
    "Help topics (twinscore help TOPIC):\n" +
    helpTopics.map((t) => `  ${t.name.padEnd(width)}  ${t.summary}`).join("\n") +
    "\n\nA command's synopsis and options: twinscore COMMAND --help (or twinscore help COMMAND).\n"
  );
}
