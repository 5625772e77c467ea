/**
 * One percentage: every rate the decision and its companion tables show is formed by
 * `rate` in `decision/readings.ts`, so an empty set reads the same everywhere (no rate,
 * `null` in JSON). This fails when a new local percentage helper appears in src/.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "./testing/shared.js";

const srcDir = join(projectRoot, "src");

/** Multiplying by 100: `100 * count / n`, `count / n * 100` (not 100_000, 100.5 or 1000). */
const percentArithmetic = /(?<![\w.])100\s*\*|\*\s*100(?![\w.])/;

/**
 * Where a percentage may be formed other than by `rate`, and why. The folders below
 * decision/ in layers.json cannot import it: stats/ forms its shares of resamples and
 * trials, bfcl/ one share in a decoder message.
 */
const outsideTheReadings: Readonly<Record<string, string>> = {
  "stats/bootstrap.ts": "resampled decisions, below the decision layer",
  "stats/trials.ts": "means over repeated trials, below the decision layer",
  "bfcl/decode/health.ts": "the share of undecodable steps in a message, below the decision layer",
};

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (p.endsWith(".ts") && !p.endsWith(".test.ts")) out.push(p);
  }
  return out;
}

/** `file:line: text` for each line that multiplies by 100, outside the body of `rate` itself. */
function percentLines(file: string): string[] {
  const rel = relative(srcDir, file);
  const lines = readFileSync(file, "utf8").split("\n");
  const out: string[] = [];
  let inRate = false;
  lines.forEach((line, i) => {
    if (rel === "decision/readings.ts" && line.startsWith("export function rate(")) inRate = true;
    if (!inRate && percentArithmetic.test(line)) out.push(`${rel}:${i + 1}: ${line.trim()}`);
    if (inRate && line === "}") inRate = false;
  });
  return out;
}

describe("one rate function", () => {
  const files = sourceFiles(srcDir).filter((f) => !relative(srcDir, f).startsWith("testing/"));

  it("the pattern finds a percentage however it is written, and nothing else", () => {
    for (const yes of ["(100 * k) / n", "k / n * 100", "((a / n + h / n) / 2) * 100", "100*x/n"])
      expect(percentArithmetic.test(yes), yes).toBe(true);
    for (const no of ["resamples: 100_000", "x * 1000", "1100 * y", "0.100 * z", "n / 100"])
      expect(percentArithmetic.test(no), no).toBe(false);
  });

  it("decision/readings.ts forms its percentages in rate alone, and rate is there", () => {
    const readings = join(srcDir, "decision", "readings.ts");
    expect(readFileSync(readings, "utf8")).toMatch(
      /^export function rate\(count: number, n: number\): number \{\n {2}return n === 0 \? Number\.NaN : \(100 \* count\) \/ n;\n\}$/m,
    );
    expect(percentLines(readings)).toEqual([]);
  });

  it("no other file of src/ forms a percentage, but the few below the decision layer", () => {
    const found = files.flatMap(percentLines).filter((l) => !(l.split(":")[0] in outsideTheReadings));
    expect(found).toEqual([]);
  });

  it("each exception is still needed (a file that stops forming a percentage leaves the list)", () => {
    for (const rel of Object.keys(outsideTheReadings)) expect(percentLines(join(srcDir, rel)).length, rel).toBeGreaterThan(0);
  });
});
