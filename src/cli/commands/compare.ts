/**
 * `twinscore compare`: two arms of the same model (a neutral and an injected prompt, two
 * serving builds, two checkpoints) scored on the same pairs. Prints the act and hold
 * shifts with exact McNemar tests, the decision change with a paired cluster-bootstrap
 * interval and, with score files, the official score change per category with its flips.
 * Wiring only — loading is `src/io/scores-run.ts`, the comparison `src/official/compare.ts`.
 */
import { Option, type Command } from "commander";
import { resolve } from "node:path";
import { renderProblemLine } from "../../messages/index.js";
import { compareArms, comparisonRows, type ComparisonRow } from "../../official/compare.js";
import { definitionPairs } from "../../official/metrics.js";
import { loadManifest } from "../../io/manifest.js";
import { loadRunInputs } from "../../io/scores-run.js";
import { firstStepTokensByModel } from "../../io/run-output.js";
import { injectionCheck, injectionCheckLine } from "../../rollout/inject-check.js";
import { DEFAULT_BOOTSTRAP } from "../../stats/index.js";
import { outputFormats, renderJson, renderRows, type Column, type OutputFormat } from "../format.js";
import { wholeNumber } from "../options.js";
import { ExitCode, type CliIo } from "../io.js";
import type { RegisterCommand } from "./index.js";

interface CompareOptions {
  a?: string;
  b?: string;
  model?: string;
  scoresA?: string;
  scoresB?: string;
  bootstrap: string;
  seed: string;
  format: OutputFormat;
  manifest?: string;
}

const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : "");
const signed = (x: number) => (Number.isFinite(x) ? (x >= 0 ? "+" : "") + x.toFixed(1) : "");

/** A p-value as the paper prints it: two significant digits, scientific below 0.001. */
export function formatP(p: number | null): string {
  if (p === null) return "";
  if (p >= 0.001) return p >= 0.995 ? "1" : p.toPrecision(2).replace(/0+$/, "").replace(/\.$/, "");
  return p.toExponential(1);
}

const columns: Column<ComparisonRow & { model: string }>[] = [
  { header: "model", value: (r) => r.model },
  { header: "measure", value: (r) => r.measure },
  { header: "slice", value: (r) => r.slice },
  { header: "N", value: (r) => r.n, align: "right" },
  { header: "A", value: (r) => f1(r.a), align: "right" },
  { header: "B", value: (r) => f1(r.b), align: "right" },
  { header: "B-A", value: (r) => signed(r.change), align: "right" },
  { header: "A only", value: (r) => r.aOnly, align: "right" },
  { header: "B only", value: (r) => r.bOnly, align: "right" },
  { header: "McNemar p", value: (r) => formatP(r.p), align: "right" },
  { header: "95% CI", value: (r) => (r.ci95 ? `[${signed(r.ci95[0])}, ${signed(r.ci95[1])}]` : ""), align: "right" },
];

/** Register `twinscore compare`. */
export const registerCompare: RegisterCommand = (program: Command, io: CliIo, state) => {
  program
    .command("compare")
    .summary("two arms of one model: act/hold shifts (McNemar), decision change with interval")
    .description(
      "Compare two arms of the same model on the same twin pairs.\n\n" +
        "Arm A and arm B are two result trees of one model (a neutral and an injected prompt, two serving " +
        "builds, two checkpoints). On Table 1's pairs both arms scored: the act rate (world-changing attempt " +
        "on the complete anchor turn) and the hold rate (none on the incomplete one), each with an exact " +
        "two-sided McNemar test on the pairs that changed, overall and per category; the change in decision " +
        "accuracy with a paired cluster-bootstrap interval over base twins. With --scores-a/--scores-b, " +
        "BFCL's own verdicts: the official score per category over every item both arms have, with McNemar " +
        "and the fail->pass / pass->fail flips, and official raw on the scored items and their base twins.\n\n" +
        "Injection check (prompt arms made with `run --inject`): on items both arms ran, the first step's input " +
        "token counts should differ by one number everywhere (the injected block's length); the table output " +
        "prints that difference's distribution and the items where it breaks (JSON: `injection`).",
    )
    .option("--a <dir>", "result tree of arm A (the reference arm)")
    .option("--b <dir>", "result tree of arm B")
    .option("--model <name>", "the model directory to compare (default: every model in both arms)")
    .option("--scores-a <dir>", "score tree of arm A (adds the official score change)")
    .option("--scores-b <dir>", "score tree of arm B")
    .option("--bootstrap <n>", "resamples of the paired interval (0: none)", String(DEFAULT_BOOTSTRAP.resamples))
    .option("--seed <s>", "seed of NumPy's default_rng for the interval", String(DEFAULT_BOOTSTRAP.seed))
    .addOption(new Option("--format <format>", "output format").choices(outputFormats).default("table"))
    .option("--manifest <file>", "pair manifest (default: the package's data/manifest.json)")
    .addHelpText(
      "after",
      "\nColumns: A, B are rates in % (official: pass rate); B-A in points; 'A only' counts pairs/items\n" +
        "that are 1 in A and 0 in B (for official rows: pass->fail), 'B only' the reverse (fail->pass);\n" +
        "McNemar p is the exact two-sided binomial test on those discordant counts. The 95% CI of the\n" +
        "decision change resamples base twins (seeded NumPy stream, the same draws for both arms).\n",
    )
    .action((opts: CompareOptions) => {
      if (opts.a === undefined || opts.b === undefined) {
        io.stderr("twinscore compare: give both --a DIR and --b DIR (the two arms' result trees)\n");
        state.exitCode = ExitCode.badInput;
        return;
      }
      if ((opts.scoresA === undefined) !== (opts.scoresB === undefined)) {
        io.stderr("twinscore compare: give --scores-a and --scores-b together (or neither)\n");
        state.exitCode = ExitCode.badInput;
        return;
      }
      const resamples = wholeNumber(opts.bootstrap, "--bootstrap", io, "compare");
      const seed = wholeNumber(opts.seed, "--seed", io, "compare");
      if (resamples === null || seed === null) {
        state.exitCode = ExitCode.badInput;
        return;
      }
      const loaded = opts.manifest === undefined ? loadManifest() : loadManifest(resolve(io.cwd, opts.manifest));
      if (!loaded.ok) {
        for (const p of loaded.problems) io.stderr(renderProblemLine(p) + "\n");
        state.exitCode = ExitCode.badInput;
        return;
      }
      const manifest = loaded.value;
      const models = opts.model === undefined ? [] : [opts.model];
      const load = (dir: string, scores: string | undefined) =>
        loadRunInputs({ resultDirs: [dir], scoreDirs: scores === undefined ? [] : [scores], models, manifest, cwd: io.cwd, skipLoginPass: true });
      const armA = load(opts.a, opts.scoresA);
      const armB = load(opts.b, opts.scoresB);
      const errors = [...armA.problems, ...armB.problems].filter((p) => p.severity === "error");
      for (const p of errors) io.stderr(renderProblemLine(p) + "\n");
      const names = armA.models.map((m) => m.inputs.model).filter((m) => armB.models.some((x) => x.inputs.model === m));
      if (names.length === 0) {
        io.stderr(`twinscore compare: no model scored in both arms${opts.model ? ` (asked for ${opts.model})` : ""}\n`);
        state.exitCode = ExitCode.badInput;
        return;
      }
      const scored = definitionPairs(manifest, "C").ids;
      const results = names.map((name) => {
        const ma = armA.models.find((m) => m.inputs.model === name)!.inputs;
        const mb = armB.models.find((m) => m.inputs.model === name)!.inputs;
        const comparison = compareArms(
          { label: "A", records: ma.records.filter((r) => scored.has(r.missId)), verdicts: ma.verdicts },
          { label: "B", records: mb.records.filter((r) => scored.has(r.missId)), verdicts: mb.verdicts },
          { resamples, seed },
        );
        return { model: name, comparison };
      });
      // the injected block reached the model: first-step input tokens differ by one number on every paired item
      const tokensA = firstStepTokensByModel(resolve(io.cwd, opts.a));
      const tokensB = firstStepTokensByModel(resolve(io.cwd, opts.b));
      const injection = names
        .filter((n) => tokensA.has(n) && tokensB.has(n))
        .map((n) => ({ model: n, check: injectionCheck(tokensA.get(n) as Map<string, number | null>, tokensB.get(n) as Map<string, number | null>) }));
      const rows = results.flatMap(({ model, comparison }) => comparisonRows(comparison).map((r) => ({ ...r, model })));
      switch (opts.format) {
        case "json":
          io.stdout(renderJson({ a: resolve(io.cwd, opts.a), b: resolve(io.cwd, opts.b), bootstrap: { resamples, seed }, models: results, injection }));
          break;
        case "table":
          io.stdout(`Arm A: ${resolve(io.cwd, opts.a)}\nArm B: ${resolve(io.cwd, opts.b)}\n\n`);
          io.stdout(renderRows(rows, columns, "table"));
          if (injection.length > 0) io.stdout("\n" + injection.map((i) => injectionCheckLine(i.model, i.check)).join("\n") + "\n");
          break;
        default:
          io.stdout(renderRows(rows, columns, opts.format));
      }
      state.exitCode = ExitCode.ok;
    });
};
