/**
 * The official-score companion's reading (`--scores DIR`): a model's BFCL score files, cross-checked against
 * the result file the scorer used, so a score file from another run is reported rather than silently mixed in.
 * More in this folder's README.md.
 */
import { scoredResultCategories, type ScoredResultCategory } from "../bfcl/categories.js";
import type { TurnQueries } from "../bfcl/inference-log.js";
import { parseScoreFile, verdictsOf, type OfficialVerdict } from "../bfcl/scores.js";
import { counted as countOf, pushAll, problem, type Problem } from "../messages/index.js";
import { nodeHost, type Host } from "../io/host.js";
import type { TreeModel } from "../io/tree.js";
import type { ResultCensus } from "./result-lines.js";

export type { ResultCensus } from "./result-lines.js";

/** The official verdicts of one model: every id of its three result files, plus the census. */
export interface OfficialReading {
  readonly model: string;
  /** Verdict per item id (all categories); empty when no usable score file was found. */
  readonly verdicts: Map<string, OfficialVerdict>;
  /** Categories whose score file was found and cross-checked. */
  readonly categories: ScoredResultCategory[];
  readonly scoreFiles: Partial<Record<ScoredResultCategory, string>>;
  /** Result-file census per category (present whenever the result file was readable). */
  readonly census: Partial<Record<ScoredResultCategory, ResultCensus>>;
  /** By item id: the turns BFCL sent, from the prompt a failed entry of a cross-checked score file keeps (the data check reads them for lines without a log). */
  readonly promptTurns: ReadonlyMap<string, TurnQueries>;
  readonly problems: Problem[];
}

/**
 * Read a model's score files and cross-check them against the result files the scorer used. A missing,
 * malformed or disagreeing score file is reported and left out, so no official number is computed from half a
 * file. More in this folder's README.md.
 */
export function readOfficial(
  model: string,
  censuses: Partial<Record<ScoredResultCategory, ResultCensus>>,
  scores: TreeModel | null,
  host: Host = nodeHost(),
): OfficialReading {
  const reading: ReadingUnderWay = {
    model,
    verdicts: new Map<string, OfficialVerdict>(),
    categories: [],
    scoreFiles: {},
    census: {},
    promptTurns: new Map<string, TurnQueries>(),
    problems: [],
  };
  for (const category of scoredResultCategories) {
    const counted = censuses[category];
    if (counted === undefined) continue;
    reading.census[category] = counted;
    const scoreFile = chosenScoreFile(model, category, scores, reading.problems);
    if (scoreFile === null) continue;
    if (!addScoreFile(reading, category, counted, scoreFile, host)) continue;
    reading.categories.push(category);
    reading.scoreFiles[category] = scoreFile;
  }
  return reading;
}

/** A reading being filled, category by category. */
type ReadingUnderWay = OfficialReading & { readonly promptTurns: Map<string, TurnQueries> };

/** The score file of a category (the first, when there are several, which is reported), or null when there is none (reported). */
function chosenScoreFile(model: string, category: ScoredResultCategory, scores: TreeModel | null, problems: Problem[]): string | null {
  const paths = (scores?.files[category] ?? []).map((f) => f.path);
  if (paths.length === 0) {
    problems.push(
      problem("score-file-missing", `model ${model}: no ${category} score file; official numbers for it are not computed`, {
        severity: "warning",
      }),
    );
    return null;
  }
  if (paths.length > 1) {
    problems.push(
      problem("score-file-repeated", `model ${model}: ${paths.length} ${category} score files found; using the first`, {
        file: paths[0],
        severity: "warning",
      }),
    );
  }
  return paths[0];
}

/**
 * Read one category's score file, cross-check it against its result file's census and add
 * its verdicts and prompts to the reading; false when it cannot be used (reported).
 */
function addScoreFile(
  reading: ReadingUnderWay,
  category: ScoredResultCategory,
  census: ResultCensus,
  scoreFile: string,
  host: Host,
): boolean {
  const { model, problems } = reading;
  const resultFile = census.file;
  const read = host.readScoreFileText(scoreFile);
  if (read === null || "reason" in read) {
    problems.push(
      problem("file-unreadable", `cannot read score file (${read === null ? "not a regular file" : read.reason})`, { file: scoreFile }),
    );
    return false;
  }
  const parsed = parseScoreFile(read.text, scoreFile);
  pushAll(problems, parsed.problems);
  if (parsed.content === null) return false;
  // a score file of lines `run --until-anchor` stopped: BFCL's (every line) or `check`'s (the stopped ones left out)
  const stopped = census.stopped;
  const whole = stopped.size === 0 || parsed.content.header.totalCount === census.ids.length;
  const checked = verdictsOf(parsed.content, whole ? census.ids : census.ids.filter((id) => !stopped.has(id)), {
    scoreFile,
    resultFile,
  });
  pushAll(problems, checked.problems);
  // A file cut short or with lines that disagree with its header would change BFCL's number
  // without a word: its category is left out, so the model's official columns stay empty.
  if (parsed.problems.length > 0 || checked.problems.some((p) => p.code === "score-count-mismatch")) {
    problems.push(
      problem(
        "score-file-unusable",
        `model ${model}: the ${category} score file is incomplete or disagrees with its header; official numbers for the model are not computed`,
        { file: scoreFile },
      ),
    );
    return false;
  }
  // BFCL's verdict on a line `run --until-anchor` stopped judges a cut rollout, not the model
  for (const [id, v] of checked.verdicts) if (!stopped.has(id)) reading.verdicts.set(id, v);
  for (const [id, f] of parsed.content.failed) if (f.promptTurns !== undefined) reading.promptTurns.set(id, f.promptTurns);
  if (stopped.size > 0) {
    problems.push(
      problem(
        "score-stopped-at-anchor",
        `model ${model}: ${countOf(stopped.size, `${category} line`)} stopped after their anchor turn (twinscore run --until-anchor), left out of the official numbers: they hold the decision only, not a whole rollout`,
        { file: resultFile, severity: "warning" },
      ),
    );
  }
  return true;
}

/**
 * The turns BFCL sent on each failed entry whose prompt a model's score files keep (the
 * first score file of each scored category, when it parses whole): what `check`'s data
 * check reads for lines without a log, as `readOfficial`'s `promptTurns` are for `score`.
 * A score file that cannot be read or parsed gives none (the job reports it).
 */
export function readScorePrompts(scores: TreeModel | null, host: Host): Map<string, TurnQueries> {
  const prompts = new Map<string, TurnQueries>();
  for (const category of scoredResultCategories) {
    const scoreFile = scores?.files[category]?.[0]?.path;
    if (scoreFile === undefined) continue;
    const read = host.readScoreFileText(scoreFile);
    if (read === null || "reason" in read) continue;
    const parsed = parseScoreFile(read.text, scoreFile);
    if (parsed.content === null || parsed.problems.length > 0) continue;
    for (const [id, f] of parsed.content.failed) if (f.promptTurns !== undefined) prompts.set(id, f.promptTurns);
  }
  return prompts;
}
