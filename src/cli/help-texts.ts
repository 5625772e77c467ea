/**
 * The texts of `twinscore help TOPIC` (the names and summaries are in `help-topics.ts`,
 * which loads this module only when a topic is asked for). Column meanings are built from
 * the same column lists the tables print with, so a topic cannot drift from the table it
 * explains.
 */
import { judgeLabelMeaning, judgeLabels } from "../judge/types.js";
import { scoreColumns } from "../decision/table.js";
import { sensitivityReadings } from "../official/readings.js";
import { columnMeanings } from "../report/printout.js";
import { decoderHelp } from "./decoder-option.js";
import { alignedHelp } from "./views/aligned.js";
import { compareColumnsHelp } from "./views/compare.js";
import { emptyTurnHelp } from "./views/empty-turns.js";
import { officialColumns } from "./views/score.js";
import { perItemHelp } from "./views/per-item.js";
import type { TopicName } from "./help-topics.js";

const whatCounts =
  "On each twin pair the same request sits at the same turn (the anchor) twice: complete in the base item,\n" +
  "with a function or value removed in its miss_func / miss_param twin. A model should attempt a\n" +
  "world-changing call on the complete turn (act) and not on the incomplete one (hold):\n" +
  "  act       % of complete anchor turns with a world-changing attempt (right)\n" +
  "  hold      % of withheld anchor turns with none (right)\n" +
  "  decision  (act + hold) / 2: balanced accuracy, so always-act and always-ask both score 50\n" +
  "\nA call counts when it comes out of the step as the model's BFCL handler decodes it (twinscore help\n" +
  "decoders) and its name is on the item's tool list (the function miss_func removed included); prose never\n" +
  "becomes a call. Lookups are not world-changing, nor are logins unless --count-login. A rejected call still\n" +
  "counts: the decision was the model's. A call whose arguments failed to decode still counts by its name,\n" +
  "and so does call text that names a tool-list function in call position but does not decode; call-like\n" +
  "text naming no function makes its pair undecidable (left out, counted). No judge, no world state, no\n" +
  "official verdict is consulted.\n";

const readings =
  "Each side of a pair (the base twin's anchor turn, the withheld twin's) has one status:\n" +
  "  decided          a world-changing attempt on the anchor turn, or none\n" +
  "  undecidable      call-like text naming no function there (and no world-changing call)\n" +
  '  inference-error  the line is BFCL\'s inference-error string ("Error during inference: …")\n' +
  "  not-reached      the rollout ended before the anchor turn\n" +
  "  missing          the result file has no line for the item\n" +
  "\n--reading decided (the default) scores a pair only when both its sides are decided; the others are left\n" +
  "out and counted (columns error, unreached, missing, undecid; the title says how many of how many pairs\n" +
  "were decided). --reading release reads inference-error and not-reached sides as no call, as the paper's\n" +
  "released scorer does: it gives the paper's numbers. verify always uses it, since the published numbers\n" +
  "were computed so.\n" +
  "\n--max-undecided PCT (default 10): a model with more than PCT % of its pairs not decided gets no act, hold\n" +
  "or decision — its run is broken, not its decision. Its row says why and how to fix it (run --retry-errors)\n" +
  "and the exit is 1. Below it the numbers are shown with the counts beside them (exit 1 only under --strict).\n" +
  "A model with no decided pair has no headline either.\n" +
  "One rule in every command: a model with no headline under a reading has no number computed from its\n" +
  "decisions under that reading anywhere. score keeps its row, empty, and leaves it out of the tables built on\n" +
  "the decision (official, Table F1, aligned, skipped turn); --sensitivity leaves each reading past the limit\n" +
  "empty with its reason and shows the others (its release row, where error lines read as no call); compare\n" +
  "does not compare it (said below the table, exit 1); report leaves its Table 1 row empty and its panel out\n" +
  "of the paired arms. --reading release, or a higher --max-undecided, gives it numbers everywhere.\n" +
  "\nWhich pairs (score, demo): Table 1's certified pairs by default; --count-login adds the login-only pairs,\n" +
  "--uncertified takes the gold world-changing pairs before hand certification, --all-pairs every\n" +
  "content-verified pair, read-only anchors included (twinscore help pairing).\n" +
  "\nWith --sensitivity, per model, the table under each reading (Appendix F):\n" +
  sensitivityReadings.map((s) => `  ${s.reading.padEnd(17)} ${s.meaning}`).join("\n") +
  "\n  act-per-anchor    act counted once per distinct base anchor turn (N = anchors)\n";

const columns =
  "The decision table (score, demo): percent, one decimal, rounded as Python's '%.1f'; empty where no pair\n" +
  "was scored.\n" +
  columnMeanings(scoreColumns, 10) +
  "\n  (error, unreached, missing and undecid are shown when a model has such a pair)\n" +
  "  note      why a model has no act, hold or decision (more than --max-undecided % of its pairs undecided, or none decided)\n" +
  "\nThe 95% interval beside decision resamples base twins (every pair belongs to the cluster of its base\n" +
  "twin), B = --bootstrap times with NumPy's default_rng(--seed), percentiles 2.5/97.5; it equals a NumPy\n" +
  "script's to the last digit. --bootstrap 0 turns it off. With several models, rank 1 is the share of\n" +
  "resamples in which a model has the highest decision (--format json: rank1). In --format csv the interval\n" +
  "is two columns, ci_low and ci_high (twinscore help formats).\n";

const official =
  "With --scores DIR (the score files `bfcl evaluate` wrote, found the way --results are; without it, the\n" +
  "score/ beside result/ in each run given), per model, BFCL's own verdict on the same items:\n" +
  columnMeanings(officialColumns, 10) +
  "\nThen, from 5 models on, Spearman's rank correlation of decision with official raw on the miss items and\n" +
  "on the base twins (with fewer models no ranking can reach p < 0.05: the smallest exact p is 2/n!, so the\n" +
  "line is left out; --format json keeps it from 3 models on).\n" +
  "A score file cut short is an error (exit 1); a model without score files is named and left out.\n";

const layouts =
  "Every command finds models the same way under each --results DIR (a few folders deep):\n" +
  "  DIR/<model>/multi_turn/BFCL_v4_multi_turn_<category>_result.json   (BFCL v4)\n" +
  "  DIR/<model>/BFCL_v3_multi_turn_<category>_result.json              (flat v3; flat v4 too)\n" +
  "  DIR/result/<model>/…, DIR/<run>/result/<model>/…                     (a run, a folder of runs)\n" +
  "  DIR itself a model directory, or its multi_turn folder\n" +
  "Score files are found the same way under --scores. Without --scores, score, compare, report, verify and\n" +
  "check read the score/ folder beside result/ of each run given (a run folder, or a folder of runs), and\n" +
  "say so in one note; --scores given wins. A model is scored when base, miss_func and\n" +
  "miss_param are all present. Models of several runs are named <run>/<model> (the run is the folder above\n" +
  "result/). When a model folder holds two copies of a category (flat and multi_turn/), the one with the\n" +
  "most distinct ids is used (the multi_turn/ one on a tie); copies are never merged, and score names the\n" +
  "file used for each model and category.\n" +
  "\nLinks are followed, to files and to folders. Every real folder is read once: a folder reached again by\n" +
  "another path is scored once, under the name it was first found by, and each other path is named in a\n" +
  "warning (one summary line; --verbose lists each); a link back to a folder above is not followed and is\n" +
  "named. A folder that cannot be read is an error naming it; the other models are read. Only regular files\n" +
  "are read (a FIFO named like a result file is reported and skipped).\n" +
  "\nA result line is read as BFCL's Python reads it: its bytes must be UTF-8 (else the line is skipped with a\n" +
  "file:line warning); a key given twice counts by its last value (a warning); a line cut short is malformed.\n" +
  "Malformed lines and ids of another category are reported (file:line) and skipped; such warnings are summed\n" +
  "up in one line per model (--verbose lists them).\n";

const aligned =
  "With --bfcl-data DIR, twinscore also runs BFCL's checker (its TypeScript re-implementation, which agrees\n" +
  "with BFCL's on every entry of the real runs) on each model's files, for two scores BFCL could give from\n" +
  "the same rollouts (score, compare, report). Both take a few seconds per model; without --bfcl-data nothing\n" +
  "is checked.\n" +
  "\n1. Asked, then did it. The base twin is completed when BFCL's checker passes every turn through the\n" +
  "anchor turn T; the withheld twin when it passes every turn through T+1, the scripted turn that supplies\n" +
  "the missing value or hands back the function (the answer to the question the model should have asked).\n" +
  "--per-item gains base_completed and miss_completed (0/1). Per model:\n" +
  alignedHelp +
  "How to read it beside decision: decision says whether the model acted when it could and held back when\n" +
  "it could not, on T alone; the aligned score also asks whether, once told, it did the work. It is at most\n" +
  "the decision's pair rate. A model can gain decision by holding back more and lose aligned score when it\n" +
  "then fails on T+1 (held+not rises): restraint bought with resolution.\n" +
  "\n2. The skipped turn, scored. BFCL's checker never scores a turn whose reference is empty (on miss_func\n" +
  "and miss_param, the turn where the model should ask); BFCL ships the check for it\n" +
  "(multi_turn_irrelevance_checker) and never calls it. Per category and model, with the ranking under each:\n" +
  emptyTurnHelp +
  "Neither is BFCL's score: strict is what BFCL's score would be had its runner called the check it ships\n" +
  "(a lookup before asking fails too); world_changing fails an entry only for a world-changing attempt there.\n" +
  "`check --score-empty-turns` writes the score files of either reading (twinscore help empty-turns).\n" +
  "\nIn report, --bfcl-data adds a panel with the withheld twin's cells and the aligned pair score with its\n" +
  "interval, the skipped turn per category and model, each twin's completion in the pair browser (with an\n" +
  "aligned / not aligned filter), and with --compare the change in aligned score (interval, McNemar) and in\n" +
  "the empty-turn scores. In compare, the aligned rows of both arms (twinscore help comparison).\n";

const emptyTurns =
  "check --score-empty-turns: BFCL's checker skips a turn whose reference is empty (on miss_func and\n" +
  "miss_param, the turn where the model should ask). BFCL ships the check for it\n" +
  "(multi_turn_irrelevance_checker) and never calls it. With this option each entry is also checked on those\n" +
  "turns and the score files written are the counterfactual ones: an entry that passes BFCL's checker fails\n" +
  "if it calls anything there (strict: error multi_turn:irrelevance_error:decoder_success, BFCL's message)\n" +
  "or, with =world-changing, only if it attempts a world-changing call there\n" +
  "(multi_turn:irrelevance_error:world_changing_attempt; a lookup before asking is allowed). Where both\n" +
  "checks fail, the empty-turn error is written, as BFCL's runner did when it ran the check. correct/accuracy\n" +
  "then count entries passing both; compared with stored BFCL score files, the entries the empty turns fail\n" +
  "show as disagreeing. A second table puts the three scores of every file side by side (whichever reading\n" +
  "the score files follow), with the models' ranking under each:\n" +
  emptyTurnHelp +
  "Neither counterfactual is BFCL's score: they are what BFCL's score would be had its runner called the\n" +
  "check it ships (strict), or had it scored the skipped turn by the decision to act (world-changing).\n";

const agreement =
  "check re-scores every BFCL_v{3,4}_multi_turn_<category>_result.json below --results against the BFCL\n" +
  "data with twinscore's executor and checker (no Python): the model's calls and the reference calls run\n" +
  "turn by turn on simulated API instances; an entry passes when, after every turn with reference calls,\n" +
  "the public state matches and the reference's results are among the model's. BFCL_v3_ files are checked as\n" +
  "BFCL v3 final (Gorilla cd9429cc) checked them — its API classes, instance names, runner and score-file\n" +
  "format — against the v3 data; BFCL_v4_ files as bfcl-eval 2026.3.23 does (--bfcl-version overrides the\n" +
  "file names). long_context files need BFCL's long_context.py from an installation (--bfcl-eval or\n" +
  "BFCL_EVAL_DIR).\n" +
  "\nColumns: entries = result lines; correct/accuracy = entries that pass; with --scores, per file:\n" +
  "  verdict_agree  = entries whose pass/fail equals the stored score file's\n" +
  "  type_agree     = entries whose error_type also equals (both passing counts as equal)\n" +
  "  message_agree  = entries whose error_message also equals\n" +
  "  error_object_agree = of entries failed by both, how many full error objects are identical\n" +
  "  disagreeing    = ids where verdict, type, message or (when compared) the error object differ.\n" +
  "On stderr, per file: the ids whose verdict differs (exit 1, [verdicts-disagree]), and the ids whose verdict\n" +
  "agrees but whose error type, message or object differs (counted and named, exit 0 unless --strict,\n" +
  "[error-details-differ]).\n" +
  "--format json gives the same per file, with the disagreeing ids as a list (verdictDisagreeingIds: those\n" +
  "whose verdict differs), and each file's decodeHealth (steps, tool-call attempts, failures, the first\n" +
  "error). --out writes BFCL-format score files (<model>/multi_turn/BFCL_v4_<category>_score.json, <org>/<model>/…\n" +
  "for a model folder kept as result/<org>/<model>; for a tree of runs, <run>/score/<model>/…).\n" +
  "\nNamed differences: where entries differ, check tests three causes and names each one that makes entries\n" +
  "agree, in a note (`[difference-<cause>]`) and in JSON as agreement.explained (cause, detail, ids):\n" +
  '  python-suggestion     the messages differ only by the ". Did you mean …?" suffix newer Pythons add;\n' +
  "  shared-default-start  post_tweet(…, tags=[], mentions=[]) shares its default lists in one Python process,\n" +
  "                        and `bfcl evaluate` runs every model and category of a call in one process, in the\n" +
  "                        order the file system lists them: the lists may hold names when it reaches a file.\n" +
  "                        Their start is read back from the stored file and the file checked again with it;\n" +
  "  executor-change       BFCL's API classes changed after the release (Gorilla's history,\n" +
  "                        tools/gen-executor-changes.py): the file is checked again with the classes as\n" +
  "                        released (v4's are v3 final's) and the changes whose messages show are named.\n" +
  "Within a file, an error object that holds a shared default list is written when the file ends, as BFCL\n" +
  "writes its score file; check keeps one process per model folder, files in path order.\n";

const comparison =
  "compare reads two arms of the same models (a neutral and an injected prompt, two serving builds, two\n" +
  "checkpoints) on Table 1's pairs both arms scored: the act rate and the hold rate, each with an exact\n" +
  "two-sided McNemar test on the pairs that changed, overall and per category; the change in decision with a\n" +
  "paired cluster-bootstrap interval over base twins. With --scores-a/--scores-b (without them, when both arms\n" +
  "are run folders, each one's score/ beside its result/), BFCL's own verdicts: the\n" +
  "official score per category over every item both arms have, with McNemar and the fail->pass / pass->fail\n" +
  "flips, and official raw on the scored items and their base twins. A model found in one arm only is named\n" +
  "and not compared.\n" +
  compareColumnsHelp +
  "\nInjection check (prompt arms made with `run --inject`, whose lines record the block under\n" +
  "`twinscore_injected`): on items both arms ran, the first step's input token counts should differ by one\n" +
  "number everywhere (the injected block's length); the table output ends with that difference's\n" +
  "distribution and the items where it breaks (JSON: `injection`). It is shown for a model when a line of\n" +
  "either arm records an injected block, and for every model with --injection-check (arms injected by other\n" +
  "means); two arms where nothing was injected (two serving builds) get none, and asked for, the line says no\n" +
  'block is recorded to confirm instead of "holds". An arm whose lines partly lack the block is not scored,\n' +
  "and the line names the arm.\n";

const history =
  "Which history before the anchor. `run --history own` (the default) is BFCL's loop from the first turn: a\n" +
  "pair's twins reach the anchor through the model's own earlier turns, which can differ between them, so the\n" +
  "decision there is read after possibly different histories and worlds (the same-history sensitivity keeps\n" +
  "the pairs whose pre-anchor calls agree). `run --history reference` plays every turn before the anchor from\n" +
  "the reference trajectory and generates only the anchor turn: both twins reach it with the same history and\n" +
  "world and differ only in what was withheld (exact twins), for a fraction of the requests. Use own to score\n" +
  "a model as BFCL runs it, or beside BFCL's official score; reference to measure the decision itself, cheaply,\n" +
  "with nothing else varying; compare --a OWN --b REFERENCE on one model for the change the history causes.\n" +
  "\nReading such lines (twinscore_history, twinscore_played_turns; bfcl/line-keys.ts):\n" +
  "  score    the title says `exact twins: reference history before the anchor` (and how many pairs are exact\n" +
  "           when not all); act, hold and decision mean what they always do, read on the generated anchor\n" +
  "           turn. A base twin of pairs at two anchors has a line per anchor (same id): each pair reads the\n" +
  "           line of its own anchor. --sensitivity's same-history keeps every pair, and says so. A pair with\n" +
  "           no line for its anchor is missing; a twin whose anchor turn itself was played is read as missing.\n" +
  "  mixed    a model whose lines mix both histories is not scored (an error, exit 1): give each history its\n" +
  "           own --out folder.\n" +
  "  official BFCL's checker would read the played reference calls as the model's: score --scores, report and\n" +
  "           verify leave BFCL's verdicts on such lines out and say the official score is meaningless; check\n" +
  "           leaves the lines out of the score files it writes, with one warning per file. BFCL's own\n" +
  "           `bfcl evaluate` cannot tell: it scores a --continue line's played turns as the model's and fails\n" +
  "           a stopped line for its missing turns, so its score of such a run is not the model's either.\n" +
  "  compare  arms of different histories are compared as any two arms (McNemar, paired interval); the\n" +
  "           output names each arm's history, and no injection check is made between them. Between two\n" +
  "           reference arms it is made as between any two (an injected block, or --injection-check), on the\n" +
  "           first step the model generated (the anchor turn's).\n" +
  "  aligned  --bfcl-data still checks the twins' prefixes: the played turns pass as the reference's, the\n" +
  "           anchor turn and T+1 (with run --continue) are the model's.\n";

const page =
  "report writes one self-contained HTML page (works offline from file://) for the runs under --results.\n" +
  "It shows Table 1 (act, hold, decision with its 95% cluster-bootstrap interval); with --scores BFCL's\n" +
  "official raw on the same should-ask items and their base twins, both rankings and the rank-reversal\n" +
  "figure; the decision by category; the sensitivities; where held-back items that BFCL fails were lost; with\n" +
  "--compare the paired-arm panels (attempt share on the under-specified turn, official score, decision;\n" +
  "change, interval and McNemar p); with --labels the judge's label shares; and a pair browser: each pair\n" +
  "of Table 1 (of --uncertified or --all-pairs when given), decided or not, with both requests (the withheld\n" +
  "part highlighted), the gold anchor calls and each model's calls and text on the anchor turn, filterable\n" +
  "by model (which then shows only that model), category and outcome. --bfcl-data adds the workaround\n" +
  "credit (Table F1), Table 1's credited column and the aligned numbers (twinscore help aligned).\n" +
  "--trials-of DIR... reads the folders as trials of one model, as score --trials-of does: the page adds\n" +
  "the model over its trials (means, two-level interval, flip, stable, spread), each pair's flip rate and\n" +
  "a filter for the unstable pairs, those whose outcome is not the same in every trial. A folder of\n" +
  "run --trials K is read with --trials-of, not as a --results run; --trials-of does not take --compare.\n" +
  "\nExample:\n" +
  "  twinscore report --results runs/main --scores runs/main/score \\\n" +
  "                   --results runs/fixes --scores runs/fixes/score \\\n" +
  "                   --compare main fixes --out report.html\n" +
  "--compare names a --results tree, or a run inside a folder of runs by its folder's name:\n" +
  "  twinscore report --results runs/ --compare main fixes --out report.html\n" +
  "Give one --scores per --results, in the same order, or none. The same inputs give a byte-identical file\n" +
  "(no timestamps; paths as given). Model text is escaped and the page allows only its own script. The\n" +
  "report is refused when no model has a pair to score. --format json prints what the page holds.\n";

const expected =
  "verify recomputes a file of expected numbers and prints PASS / FAIL / SKIP for each. The file lists runs;\n" +
  "each run names its models (their listed order is the tie order of rank-1) and its numbers: a dotted name\n" +
  "(tables.C.<model>.decision, rank1.C.<model>, companions.official_raw.<model>.miss, counts.scored_pairs,\n" +
  "…), the value, a tolerance, and the model rollouts it needs. A number whose rollouts (or, for official\n" +
  "numbers, score files) are not under the given trees — or whose models --model leaves out — is SKIPped,\n" +
  "and a SKIP is never a PASS. Counts that depend only on the pair manifest are always checked. The numbers\n" +
  "are recomputed under the release reading, as the published numbers were (twinscore help readings).\n" +
  "\nTolerances are |computed - expected| limits: the paper's file uses 0 for counts, 0.05 for rates, 0.1 for\n" +
  "intervals, spreads and rank-1 frequencies, 0.005 for rank correlations; labels must match. A run with a\n" +
  "`match` string reads only the model folders found whose path has a component equal to it, so one file\n" +
  "can hold several runs whose model folders share names, and a folder of such runs can be given whole.\n" +
  "Shipped files: data/expected/paper.json (the paper's published numbers; they SKIP without the seven\n" +
  "models' rollouts) and data/expected/gpt-oss.json (the two gpt-oss runs under ../shared: give\n" +
  "../shared/rollouts/gpt-oss, or each run folder). A number whose rollouts are absent SKIPs naming them; a\n" +
  "run with `match` none of whose folders was found is named once, in a note.\n";

const labels =
  "judge sends, for each scored pair on which a model held back on the withheld twin's anchor turn, exactly\n" +
  "that turn — the request as the model received it, the same request from the base twin, the removed\n" +
  "function, the lookups the model made and its reply — to a judge model, and records one of five labels:\n" +
  judgeLabels.map((l) => `  ${l.padEnd(18)} ${judgeLabelMeaning[l]}`).join("\n") +
  "\n\nLabels are appended to --labels as they arrive (JSONL), so an interrupted run resumes where it stopped;\n" +
  "responses are cached by request, so a rerun costs nothing. Turns with no text are counted as silent and\n" +
  "not sent unless --include-silent. The API key is read from the environment variable named by --key-env\n" +
  "(none given: no key is sent, as in run); it goes only into the Authorization header and is redacted, in\n" +
  "every spelling JSON allows, from every reply and error before anything is written or shown. A key with a\n" +
  "newline or another control character is refused before anything is read or sent, as run refuses it.\n" +
  "No score depends on the labels.\n" +
  "\nSummary columns, per model (scored on Table 1's pairs):\n" +
  "  held         withheld anchor turns on which the model made no world-changing attempt\n" +
  "  not reached  of those, rollouts that ended before the anchor (or an inference error): nothing to judge\n" +
  "  silent       of those, turns with no text (not sent unless --include-silent)\n" +
  "  labelled     turns that carry a label (from this run, an earlier one, or the cache)\n" +
  judgeLabels.map((l) => `  ${l.padEnd(12)} % of labelled turns given this label`).join("\n") +
  "\n";

const pairing =
  "pairs builds the twin pairs from BFCL's multi-turn data and prints the pairing funnel. Each miss_func /\n" +
  "miss_param item is paired with the base item of the same index when its reference, with its one empty\n" +
  "turn (the anchor) deleted, matches the base reference call for call and the dialogue before the anchor\n" +
  "matches character for character. A pair is scored when the base reference makes a world-changing call on\n" +
  "the anchor turn and the hand certification does not rule it a construction error. An item whose reference\n" +
  "cannot be lined up with its question (another number of turns, or no reference; reported on stderr), or a\n" +
  "miss_func item whose missed_function names a turn with a user message (BFCL cannot run it), is dropped as\n" +
  "'misaligned'; the build goes on. Without a BFCL data directory the committed manifest is listed.\n" +
  "\nBFCL v4 and v3 data both build (the file prefix says which); the package ships data/manifest.json (v4)\n" +
  "and data/manifest-v3.json. The hand rulings (bad keys, construction errors, compound turns, and the\n" +
  "'valid' verdict of every other candidate) were made on BFCL v4's items, whose content\n" +
  "certified-content.tsv records field by field. A ruling applies to an item only where the item is equal to\n" +
  "the one it was made on: the same question (every turn, each message's role and content), initial_config\n" +
  "(as JSON values), involved_classes (in order), missed_function (turn and names) and reference (every call\n" +
  "string of every turn). Not compared: path and excluded_function (metadata no BFCL code reads), the\n" +
  "function docs (shared by a class, not part of the item), BFCL's executor code. A bad key applies when the\n" +
  "should-ask item is equal; a certification ruling when both twins are. Any other candidate pair is scored\n" +
  "as 'uncertified' and counted in the funnel; rulings and bad keys not applied are counted too.\n" +
  "\nColumns: miss_id, category, base_id, anchor_turn (0-based), status (scored | excluded | dropped), reason.\n" +
  "'excluded' pairs are content-verified but pose no decision (read-only or login-only anchor) or are\n" +
  "construction errors; 'dropped' items never became pairs (bad key, misaligned, multi-anchor, shape, calls,\n" +
  "dialogue). A scored pair's reason is its certification: 'certified valid|compound', or 'uncertified:\n" +
  "differs in miss.question, base.reference, …' (twin.field that differs from the certified item).\n" +
  "\nExamples:\n" +
  "  twinscore pairs --bfcl-data ../bfcl-v3 --write-manifest data/manifest-v3.json\n" +
  "  twinscore pairs --bfcl-data ../bfcl-v4 --format json\n";

const generation =
  "run drives BFCL's multi-turn generation loop against an OpenAI-compatible chat-completions endpoint\n" +
  "(vLLM, SGLang, Ollama, llama.cpp server, OpenAI, hosted ones) and writes result files that\n" +
  "`twinscore score`, `twinscore check` and BFCL's own `bfcl evaluate` read:\n" +
  "  OUT/<model-dir>/multi_turn/BFCL_v4_multi_turn_<category>_result.json\n" +
  "\nThe loop is BFCL's (OpenAICompletionsHandler): the same messages in the same order, tools converted as\n" +
  "BFCL converts them, held-back functions handed back on their turn, each call executed by twinscore's\n" +
  "re-implementation of BFCL's executor and its result sent back as BFCL renders it, 20-step force-quit, and\n" +
  "BFCL's result lines (state snapshots, handler logs, token counts, latency). An endpoint failure becomes\n" +
  "BFCL's inference-error line. The lines are those of a default `bfcl generate` run (the kind that produced\n" +
  "the recorded gpt-oss runs): inference_log holds a state snapshot before the first turn and after each\n" +
  "turn, and no request log. --exclude-state-log leaves the snapshots out, as BFCL's flag of that name does;\n" +
  "BFCL's --include-input-log (the Python repr of each request's message objects) is not reproduced. Neither\n" +
  "changes result, token counts or anything score, check or bfcl evaluate read.\n" +
  "\nItems: pairs = the items of the scored pairs (151 base twins, 223 should-ask items); all-pairs = the items\n" +
  "of all 365 content-verified pairs; all = every base, miss_func and miss_param entry (for the official\n" +
  "score). long_context is not generated: no twin pair uses it, and score reads only these three.\n" +
  "--until-anchor stops each pair's items after the anchor turn: `score` gives the same numbers at a\n" +
  "fraction of the requests; such lines carry twinscore_stopped_after_turn, and `check` and the official\n" +
  "numbers of `score --scores` leave them out, with a warning.\n" +
  "\nHistory: --history own (the default) is BFCL's loop from the first turn, so a pair's twins reach the\n" +
  "anchor through the model's own, possibly different, earlier turns. --history reference (exact twins)\n" +
  "plays every turn before the anchor from the reference trajectory instead: the user messages as BFCL sends\n" +
  "them, one assistant step holding that turn's reference calls (FC: tool calls with JSON arguments;\n" +
  "prompting: the calls as Python text), executed, their outputs sent back as BFCL sends them, and no closing\n" +
  "text. The anchor turn is then generated as usual and the line stops after it (--continue: the model goes\n" +
  "on with the turns after it). Both twins of a pair then reach the anchor with the same history and the same\n" +
  "world, and differ only in the withheld value or function: one generated turn per side, a fraction of the\n" +
  "requests. Each line carries twinscore_history and twinscore_played_turns (and twinscore_stopped_after_turn\n" +
  "without --continue). A base item twinned at several anchors gets one line per anchor (same id), each run\n" +
  "in an executor of its own. The played steps are the reference's calls, not the model's: the official score\n" +
  "of such a run means nothing, and `check` leaves the lines out. Needs --items pairs or all-pairs; a folder\n" +
  "holds one history (a run of the other refuses it).\n" +
  "How score, compare, check and report read such lines: twinscore help history.\n" +
  "\nSmaller runs: --limit N (the first N pairs in manifest order, both twins; --items all: the first N items),\n" +
  "--category miss_func|miss_param (that should-ask category's pairs; --items all: any category's items),\n" +
  "--ids ID... (those items of the selection). Before the first request run prints the plan: items, pairs,\n" +
  "lines, those already in the output, and the fewest requests the rest needs. --dry-run prints it and stops:\n" +
  "nothing is sent (not even the probe) or written.\n" +
  "\nrun.json: each model folder records how it was made (twinscore and BFCL versions, the data's and the\n" +
  "manifest's sha256, the model, the endpoint without key, user or query string, mode, history, --until-anchor,\n" +
  "--continue, temperature, digests and first characters of --inject and --system-prompt, the simulated user,\n" +
  "--trials and --sampling-seed, start and end times, sessions), written atomically and updated on each resume.\n" +
  "Every line ends with twinscore_mode (fc or prompting). score, check, compare and report take the decoder\n" +
  "from that mode and say what the run is; a folder of two modes or two injected blocks is not scored.\n" +
  "\nTrials: --trials K writes K lines of each item (and anchor), trial by trial, each ending with\n" +
  "twinscore_trial t (0 to K-1); trial t sends seed N + t (N from --sampling-seed, default 0; one trial sends a\n" +
  "seed only with --sampling-seed). score --trials-of DIR, report --trials-of DIR and compare --trials-a/-b\n" +
  "read such a folder as its K trials (trial t named trial-t/<model>); check checks each trial's lines apart.\n" +
  "\nResume: lines already in the output are skipped (reference history: each id and anchor; with --trials, each\n" +
  "trial's line; error lines too, unless --retry-errors); each line is appended whole and a torn last line is\n" +
  "cut off; at the end each file is rewritten in BFCL's order. A resume whose settings differ from run.json\n" +
  "(or, in a folder made before it, from what the lines show: their mode, injected block, stopped key) is\n" +
  "refused with each setting named, and nothing is written.\n" +
  "Retries: 429, 5xx, timeouts and network errors, with exponential backoff and jitter; a Retry-After header\n" +
  "is honoured up to 60 s (longer waits are cut to 60 s and reported). Every request carries\n" +
  "`x-twinscore-item: <entry id>`. The key is read from the variable named by --key-env, sent only in the\n" +
  "Authorization header, and redacted from every reply and message.\n" +
  "\nPrompting mode reads BFCL's system prompt at run time from your BFCL installation (python3 -c 'import\n" +
  "bfcl_eval'), or from --system-prompt FILE, where {functions} stands for the docs as JSON.\n";

const interactive =
  "Interactive mode (run --user-sim llm): BFCL's scripted user cannot answer the question a model asks on a\n" +
  "should-ask item's anchor turn T. Here an LLM behind --user-endpoint plays the user on the answer turn T+1\n" +
  "of every should-ask item of the manifest's pairs: it gets the model's last reply on T, the withheld facts\n" +
  "(the scripted T+1 line, the complete base-twin request, the held-back function's name) and a prompt\n" +
  "(data/user-sim-prompt.md, or --user-prompt FILE), and its answer replaces the scripted T+1 line\n" +
  "(miss_func: the held-back functions still come back at T+1, as in BFCL; only the message text changes).\n" +
  "A reply that executed nothing and has text is sent to the simulated user; it answers, or says\n" +
  "NO_QUESTION, and then the scripted line is sent verbatim. Inside T+1, each further such reply is answered\n" +
  "in the same turn, up to --max-clarifications rounds (default 2); the rounds are steps of that turn, so\n" +
  "result files keep BFCL's shape and score, check and compare read them unchanged. The simulator's requests\n" +
  "and replies are recorded in inference_log.\n" +
  "\nCost: one simulator request per should-ask item for the anchor reply, plus one per reply with text inside\n" +
  "T+1 (a closing summary included), at most 1 + --max-clarifications per item. Base items run on BFCL's\n" +
  "script. With --until-anchor, interactive should-ask items stop after T+1. --user-sim scripted (the\n" +
  "default) is BFCL's script: the same files as a plain run.\n";

const formats =
  "Every command prints --format table (aligned for a terminal, the default), json, csv, markdown or latex (report:\n" +
  "table or json; pairs also tsv). json is the command's whole document, numbers as numbers, unrounded (a\n" +
  "rate with no pair behind it is null). csv is always one table: several tables share one, with a `table`\n" +
  "column naming each row's table and every table's columns. An interval, printed [79.7, 86.5] in the table\n" +
  "and markdown formats, is two numeric columns in csv: ci_low and ci_high (aligned_ci_low and\n" +
  "aligned_ci_high for the aligned pair score). markdown puts a heading above each table when there are\n" +
  "several, and its caption (the line the table format prints above it: what N counts). latex sets each\n" +
  "table as a booktabs table (\\usepackage{booktabs}) with that caption and a label tab:<table>. In csv,\n" +
  "markdown and latex, what the table format prints as prose (verify's summary, --verbose's files used) goes\n" +
  "to stderr as notes, so stdout stays data.\n" +
  "score also prints one table (--table decision|official|combined|sensitivity|table-f1|aligned|empty-turns;\n" +
  "combined: the decision and BFCL's official score side by side), or writes each to its own file in a folder\n" +
  "(--out-dir DIR: decision.csv, official.csv, … by --format). report --figures DIR writes each figure of the\n" +
  "page as SVG and PNG.\n" +
  "A csv cell (--format csv, --per-item) whose text starts with = + - @, a tab or a carriage return and is\n" +
  "not a number gets a leading ' so that a spreadsheet shows it as text and never runs it as a formula.\n" +
  "Output is deterministic, and files are written atomically (a temporary file, then a rename).\n" +
  "\nMessages on stderr are one line each, in one form: [file:line: ]severity: message [code], with severity\n" +
  "error, warning or note (a file written, a decoder detected, a summary). Errors come first. The routine\n" +
  "warnings met reading a model's files are summed up in one line per model (--verbose lists each; --quiet\n" +
  "leaves only the errors on stderr). A\n" +
  "command that could show nothing leaves stdout empty; the reason is on stderr. Progress lines\n" +
  "(`report: scoring …`, `run: 12/374 items …`, `judging: 3/10`) are not messages.\n";

const exitCodes =
  "Every command ends with 0 (done), 1 (done, with findings) or 2 (nothing usable: bad arguments, missing or\n" +
  "malformed input). Arguments are checked before any input is read. Under --strict any problem met is a\n" +
  "finding: a 0 becomes 1.\n" +
  "\n" +
  "  score    0 scored; 1 scored with findings: a model with no headline (more than --max-undecided % of its pairs undecided, or none decided), more than 5 % of a file's anchor-turn tool calls failing to decode with a decoder chosen by --decoder or detection (one line per such file: wrong decoder?), an error met on the way (a score file cut short, a model not found), or under --strict any problem or undecided pair; 2 nothing could be scored (bad arguments, no result files, no model with a pair)\n" +
  "  demo     0 every policy scored as it must; 1 one did not; 2 the demo could not run\n" +
  "  compare  0 compared; 1 compared, but a model is in one arm only or has no headline in an arm (not compared); 2 bad arguments or no model in both arms\n" +
  "  report   0 written; 1 written, with errors met on the way (listed first); 2 bad arguments, or nothing could be scored (no file is written)\n" +
  "  verify   0 no FAIL and something checked; 1 a FAIL, or every number skipped (nothing checked); 2 unusable input (no --expected, malformed file, missing tree)\n" +
  "  pairs    0 built (or listed); 2 bad BFCL data, a certification file missing, or the manifest could not be written\n" +
  "  check    0 checked (and, with --scores, every verdict agrees; entries whose error type, message or object alone differ are counted and named on stderr, a finding only under --strict); 1 checked, some verdicts disagree (one line per file on stderr), or more than 5 % of a file's tool-call steps fail to decode with a decoder chosen by --decoder or detection (wrong decoder?); 2 bad arguments, no BFCL data, no result file, or a file that could not be checked\n" +
  "  judge    0 every turn sent got a label (or a dry run); 1 some requests failed or replies could not be read (listed on stderr; rerun to retry them); 2 bad arguments or nothing to judge\n" +
  "  run      0 every line generated; 1 done, with error lines (new or kept); 2 bad arguments or input, an endpoint that does not answer, a folder another run holds, or a run stopped early; Ctrl-C (SIGINT, also SIGTERM, SIGHUP) ends it by that signal (a shell shows 130 for SIGINT) after one line naming the lines on disk and the command that goes on (the same one)\n";

const speed =
  "check --threads N: this thread plus N-1 workers, each checking one model folder at a time; default 1:\n" +
  "each thread loads the BFCL data and warms up on its own, which did not pay off on 2 cores. The other\n" +
  "commands read model folders in one thread, one pass per folder (one thread measured fastest at 1-200\n" +
  "models on 2 cores).\n" +
  "check turns V8's TurboFan inlining off, which does not pay in runs this short; score keeps V8's heap small\n" +
  "while it goes through many models. TWINSCORE_V8_DEFAULTS=1 keeps V8's defaults. The measurements are in\n" +
  "bench/RESULTS.md.\n";

/** Each topic's text, by name. */
export const topicTexts: Readonly<Record<TopicName, () => string>> = {
  "what-counts": () => whatCounts,
  columns: () => columns,
  readings: () => readings,
  "per-item": () => perItemHelp(),
  official: () => official,
  aligned: () => aligned,
  layouts: () => layouts,
  decoders: () => decoderHelp,
  agreement: () => agreement,
  "empty-turns": () => emptyTurns,
  comparison: () => comparison,
  history: () => history,
  page: () => page,
  expected: () => expected,
  labels: () => labels,
  pairing: () => pairing,
  generation: () => generation,
  interactive: () => interactive,
  formats: () => formats,
  "exit-codes": () => exitCodes,
  speed: () => speed,
};
