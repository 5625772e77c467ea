/**
 * The independent implementation of the repeated-trial statistics (tools/gen-trial-vectors.py,
 * standard-library Python with its own NumPy-compatible stream), asked about one model's
 * outcomes, and the same numbers as twinscore's summary holds them, for comparing the two.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import type { TrialsSummary } from "../app/score-trials.js";
import type { TrialPair } from "../stats/index.js";
import { projectRoot } from "./shared.js";

/** The reference's numbers, floats as repr() strings (null where there is none). */
export interface ReferenceTrialNumbers {
  readonly means: { readonly act: string; readonly hold: string; readonly decision: string };
  readonly flipRates: readonly (string | null)[];
  readonly meanFlipRate: string | null;
  readonly stableShare: string | null;
  readonly decisionByTrial: readonly string[];
  readonly decisionSpread: string | null;
  readonly decision95: readonly string[];
  readonly act95: readonly string[];
  readonly hold95: readonly string[];
}

/** Run the stdlib-Python reference on `pairs` with B resamples and a seed. */
export function referenceTrialNumbers(pairs: readonly TrialPair[], resamples: number, seed: number): ReferenceTrialNumbers {
  const out = execFileSync("python3", [join(projectRoot, "tools", "gen-trial-vectors.py"), "--stdin"], {
    input: JSON.stringify({ pairs, B: resamples, seed }),
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  return JSON.parse(out) as ReferenceTrialNumbers;
}

const num = (s: string | null): number | null => (s === null ? null : Number(s));

/** The summary's numbers in the reference's shape (numbers), and the reference's as numbers, for one `toEqual`. */
export function comparable(summary: TrialsSummary, reference: ReferenceTrialNumbers, perTrialFromReference = true) {
  return {
    ours: {
      means: [summary.act, summary.hold, summary.decision],
      flipRates: summary.pairRows.map((p) => p.flipRate),
      meanFlipRate: summary.meanFlipRate,
      stableShare: summary.stableShare,
      ...(perTrialFromReference ? { decisionByTrial: summary.decisionByTrial, decisionSpread: summary.decisionSpread } : {}),
      intervals: [summary.ci95, summary.actCi95, summary.holdCi95],
    },
    reference: {
      means: [reference.means.act, reference.means.hold, reference.means.decision].map(num),
      flipRates: reference.flipRates.map(num),
      meanFlipRate: num(reference.meanFlipRate),
      stableShare: num(reference.stableShare),
      ...(perTrialFromReference
        ? { decisionByTrial: reference.decisionByTrial.map(num), decisionSpread: num(reference.decisionSpread) }
        : {}),
      intervals: [reference.decision95, reference.act95, reference.hold95].map((i) => i.map(num)),
    },
  };
}

/** The reference's paired two-level interval of decision(b) − decision(a) over the same pairs. */
export function referencePairedDifference(
  a: readonly TrialPair[],
  b: readonly TrialPair[],
  resamples: number,
  seed: number,
): [number, number] {
  const out = execFileSync("python3", [join(projectRoot, "tools", "gen-trial-vectors.py"), "--stdin"], {
    input: JSON.stringify({ a, b, B: resamples, seed }),
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  const [lo, hi] = (JSON.parse(out) as { difference95: string[] }).difference95.map(Number);
  return [lo, hi];
}
