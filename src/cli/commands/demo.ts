/**
 * `twinscore demo`: the first command to run on a fresh machine. Writes BFCL-format runs
 * of four reference policies (built from the manifest's reference calls; nothing is
 * downloaded), scores them through exactly the code of `twinscore score`, and checks
 * that they land where the measure says they must: 50 / 50 / 100 / 50.
 */
import { resolve } from "node:path";
import { mkdirSync } from "node:fs";
import type { Command } from "commander";
import { checkReferenceDecision, demoFiles, referencePolicies } from "../../decision/demo.js";
import { selectPairs } from "../../decision/score.js";
import { renderProblemLine } from "../../messages/index.js";
import { makeDemoDir, removeDemoDir, writeDemoRun } from "../../io/results-demo.js";
import { ExitCode, type CliIo } from "../io.js";
import type { RegisterCommand } from "./index.js";
import { addScoreOptions, columnsHelp, manifestOf, scoreAndPrint, scoreOptionsOf, type ScoreCliOptions } from "./score.js";

function explanation(pairs: number): string {
  return [
    "twinscore demo: the decision to act, scored on four built-in reference policies",
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
      "Score four reference policies (always-act, never-act, oracle, lookups-only) on synthetic BFCL runs " +
        "built from the manifest's reference calls, through the same code as `score`; they must come out " +
        "50 / 50 / 100 / 50. No downloads. Then run `twinscore score --results DIR` on your own BFCL outputs.",
    )
    .option("--keep <dir>", "write the synthetic result files to DIR and keep them (default: a temporary folder, removed)");
  addScoreOptions(cmd)
    .addHelpText("after", columnsHelp)
    .action(async (opts: ScoreCliOptions & { keep?: string }) => {
      const options = scoreOptionsOf(opts);
      if (typeof options === "string") {
        io.stderr(`twinscore demo: ${options}\n`);
        state.exitCode = ExitCode.badInput;
        return;
      }
      const manifest = manifestOf(io, opts.manifest);
      if (!manifest) {
        state.exitCode = ExitCode.badInput;
        return;
      }
      const pairs = selectPairs(manifest, options);
      let dir: string;
      try {
        dir = opts.keep !== undefined ? resolve(io.cwd, opts.keep) : makeDemoDir();
        mkdirSync(dir, { recursive: true });
      } catch (e) {
        io.stderr(`twinscore demo: cannot make a folder for the runs: ${e instanceof Error ? e.message : String(e)}\n`);
        state.exitCode = ExitCode.badInput;
        return;
      }
      try {
        for (const policy of referencePolicies) {
          const files = demoFiles(policy.name, pairs);
          const written = files.ok ? writeDemoRun(dir, policy.name, files.value) : files;
          if (!written.ok) {
            for (const p of written.problems) io.stderr(renderProblemLine(p) + "\n");
            state.exitCode = ExitCode.badInput;
            return;
          }
        }
        const request = { resultDirs: [dir], models: referencePolicies.map((p) => p.name), manifest };
        // the reference policies write native function-calling records: BFCL's FC decoder, unless --decoder says otherwise
        const { code, runs } = await scoreAndPrint(io, request, { ...opts, decoder: opts.decoder ?? "fc" }, { title: explanation(pairs.length), showFiles: opts.keep !== undefined });
        // On --all-pairs the 134 read-only anchors hold no world-changing reference call, so
        // the policies cannot land on 50 / 100 there: that is why those pairs are not scored.
        const checked = options.pairSet !== "all";
        const mismatches = !checked ? [] : runs.flatMap((run) => {
          const policy = referencePolicies.find((p) => p.name === run.model);
          if (!policy || !run.score) return [];
          const m = checkReferenceDecision(policy.name, run.score.numbers.decision);
          return m ? [m] : [];
        });
        for (const m of mismatches) io.stderr(renderProblemLine(m) + "\n");
        if (opts.format === "table") {
          io.stdout(
            !checked
              ? "\nOn all 365 pairs the 134 whose reference only reads or logs in on the anchor turn pose no\n" +
                  "decision to act: the oracle's 'act' there is a lookup, and never acting is right on both twins.\n" +
                  "The reference policies therefore leave 50 / 100, which is why those pairs are not scored (§4.2).\n"
              : mismatches.length === 0
              ? "\nAll four reference policies score as they must (50 / 50 / 100 / 50).\n" +
                  (opts.keep !== undefined ? `The synthetic runs are kept in ${dir}.\n` : "") +
                  "Next: twinscore score --results <your BFCL result dir>   (see twinscore score --help)\n"
              : "\nA reference policy did not score as it must: see the errors above.\n",
          );
        }
        state.exitCode = mismatches.length > 0 ? ExitCode.findings : code;
      } finally {
        if (opts.keep === undefined) removeDemoDir(dir);
      }
    });
};
