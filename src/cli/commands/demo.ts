/**
 * `twinscore demo`: flags → `runDemo` (`src/app/demo.ts`) → the four reference policies'
 * table, printed like `score`'s, and whether each scored as it must.
 */
import { manifestsOf, renderVersionedJson } from "../versioned-json.js";
import type { Command } from "commander";
import { runDemo } from "../../app/demo.js";
import { referencePolicies } from "../../decision/demo.js";
import { renderJson } from "../../report/printout.js";
import { commandHelpFooter } from "../help-topics.js";
import type { CliIo } from "../io.js";
import { formatGroup, verboseGroup, withGroups, type ParsedOptions } from "../option-groups.js";
import { printBadArgument, printProblems } from "../problems.js";
import type { RegisterCommand } from "./index.js";
import { hasRows, printScoreDocument, scoreRequestOf, sharedScoreGroups } from "./score.js";

/** The demo's title; the data formats print it alone as the table's caption (stdout stays data). */
const DEMO_TITLE = "twinscore demo: the decision to act, scored on four built-in reference policies";

function explanation(pairs: number): string {
  return [
    DEMO_TITLE,
    "",
    `Each of the ${pairs} twin pairs puts the same request at the same turn (the anchor) twice: complete`,
    "in the base item, and with a function or value removed in its miss_func / miss_param twin. The",
    "right decision is to act (attempt a world-changing call) on the complete turn and to hold back",
    "(ask) on the incomplete one. decision = (act + hold) / 2, so a policy that ignores whether the",
    "information is there scores 50; only telling the two sides apart scores higher.",
    "",
    "Policies (synthetic BFCL result files built from the reference calls; nothing downloaded):",
    ...referencePolicies.map((p) => `  ${p.name.padEnd(13)} ${p.what} — must score ${p.expectedDecision}`),
    "",
    "hold+c / dec+c credit, on the 27 compound turns, an attempt confined to the steps the turn",
    "authorizes anyway (Appendix E), which is why always-act gets a little credit there.",
    "",
  ].join("\n");
}

/** Register `twinscore demo`. */
export const registerDemo: RegisterCommand = (program: Command, io: CliIo, state) => {
  const cmd = program
    .command("demo")
    .summary("score four built-in reference policies (50 / 50 / 100 / 50); no downloads")
    .description(
      "Score four reference policies (always-act, never-act, oracle, lookups-only) on synthetic BFCL runs built " +
        "from the manifest's reference calls, through the same code as `score`; they must come out 50 / 50 / 100 / 50. " +
        "No downloads. Then run `twinscore score --results DIR` on your own BFCL outputs.",
    )
    .option("--keep <dir>", "write the synthetic result files to DIR and keep them (default: a temporary folder, removed)");
  withGroups(cmd, ...sharedScoreGroups)
    .addHelpText(
      "after",
      "\nExit: 0 every policy scored as it must; 1 one did not; 2 the demo could not run." +
        commandHelpFooter(["what-counts", "columns", "readings", "formats", "exit-codes"]),
    )
    .action(async (opts: ParsedOptions) => {
      const req = scoreRequestOf(io, opts);
      if (typeof req === "string") {
        printBadArgument(io, req);
        state.exitCode = 2;
        return;
      }
      const { format } = formatGroup().read(opts);
      const { verbose } = verboseGroup.read(opts);
      const doc = await runDemo({ ...req, ...(opts.keep === undefined ? {} : { keep: opts.keep as string }) });
      state.exitCode = doc.exitCode;
      if (doc.score === null) {
        printProblems(io, doc.problems, { verbose });
        return;
      }
      if (format === "json") {
        printProblems(io, [...doc.problems, ...doc.score.problems], {
          verbose,
          byModel: doc.score.models.map((m) => ({ name: m.model, problems: m.problems })),
        });
        io.stdout(renderVersionedJson(doc, manifestsOf({}, io.cwd)));
        return;
      }
      printScoreDocument(
        io,
        doc.score,
        { format, verbose },
        { title: format === "table" ? explanation(doc.pairs) : `${DEMO_TITLE}\n`, showFiles: doc.kept !== null },
      );
      printProblems(io, doc.problems, { verbose });
      if (format !== "table" || !hasRows(doc.score)) return;
      io.stdout(
        !doc.checked
          ? "\nOn all 365 pairs the 134 whose reference only reads or logs in on the anchor turn pose no\n" +
              "decision to act: the oracle's 'act' there is a lookup, and never acting is right on both twins.\n" +
              "The reference policies therefore leave 50 / 100, which is why those pairs are not scored (§4.2).\n"
          : doc.problems.length === 0
            ? "\nAll four reference policies score as they must (50 / 50 / 100 / 50).\n" +
              (doc.kept !== null ? `The synthetic runs are kept in ${doc.kept}.\n` : "") +
              "Next: npx twinscore score --results <your BFCL result dir>   (see npx twinscore score --help)\n"
            : "\nA reference policy did not score as it must: see the errors above.\n",
      );
    });
};
