import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { projectRoot, rolloutRunDir, rolloutRuns } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";
import type { ScoreDocument } from "../../app/score.js";
import type { TrialsComparisonDocument } from "../../app/compare-trials.js";
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";

const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
/** The document, validated against the package's schema for it. */
function validated<T>(text: string, schema: string): T {
  const doc = JSON.parse(text) as T;
  const validate = ajv.compile(JSON.parse(readFileSync(join(projectRoot, "data", "schemas", `${schema}.schema.json`), "utf8")) as object);
  expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
  return doc;
}

async function run(argv: string[]) {
  const io = memoryIo({}, projectRoot);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

const folders = rolloutRuns.map((r) => join(rolloutRunDir(r), "result", "openai_gpt-oss-120b"));

describe("twinscore score --trials-of", () => {
  it("prints each trial's row, the model over its trials and the pairs that changed; JSON holds the same numbers unrounded", async () => {
    const json = await run(["score", "--trials-of", ...folders, "--format", "json"]);
    expect(json.code).toBe(0);
    const doc = validated<ScoreDocument>(json.out, "score");
    const t = doc.trials!;
    expect(t.trials).toBe(2);
    const unstable = t.pairRows.filter((p) => (p.flipRate ?? 0) > 0);
    const table = await run(["score", "--trials-of", ...folders]);
    expect(table.code).toBe(0);
    const f1 = (v: number) => v.toFixed(1);
    const row = new RegExp(
      `\\nopenai_gpt-oss-120b +2 +${t.pairs} +${f1(t.act)} +${f1(t.hold)} +${f1(t.decision)} +\\[${f1(t.ci95![0])}, ${f1(t.ci95![1])}\\] +${f1(t.meanFlipRate!)} +${f1(t.stableShare!)} +${f1(t.decisionSpread!)}\\n`,
    );
    expect(table.out).toMatch(row);
    expect(table.out).toContain(`Decision by trial: ${t.decisionByTrial.map(f1).join(", ")}\n`);
    expect(table.out).toContain(`${unstable.length} of ${t.pairsWithTrials} pairs changed their outcome between trials`);
    for (const p of unstable) expect(table.out).toMatch(new RegExp(`\\n${p.missId} +${p.baseId} +2 +100\\.0 +[aA][hH] [aA][hH]\\n`));
    // the stable pairs are not listed
    const stable = t.pairRows.find((p) => p.flipRate === 0)!;
    expect(table.out).not.toMatch(new RegExp(`\\n${stable.missId} `));
  }, 180_000);
  it("refuses --trials-of beside --results with one line and exit 2", async () => {
    const r = await run(["score", "--results", folders[0], "--trials-of", folders[1]]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toContain("give the trials of one model with --trials-of DIR… alone, not beside --results");
  }, 60_000);
});

describe("twinscore compare --trials-a … --trials-b …", () => {
  const smaller = join(rolloutRunDir(rolloutRuns[1]), "result", "openai_gpt-oss-20b");
  it("prints each arm over its trials and the paired change over the pairs both decided; JSON holds the same numbers", async () => {
    const json = await run(["compare", "--trials-a", ...folders, "--trials-b", smaller, "--format", "json"]);
    expect(json.code).toBe(0);
    const doc = validated<TrialsComparisonDocument>(json.out, "compare-trials");
    expect([doc.a!.trials, doc.b!.trials]).toEqual([2, 1]);
    expect(doc.b!.meanFlipRate).toBeNull();
    const table = await run(["compare", "--trials-a", ...folders, "--trials-b", smaller]);
    expect(table.code).toBe(0);
    const sign = doc.change! >= 0 ? "+" : "";
    expect(table.out).toContain(
      `Decision change B - A on the ${doc.pairs} pairs both arms decided: ${sign}${doc.change!.toFixed(1)} [${doc.ci95![0].toFixed(1)}, ${doc.ci95![1].toFixed(1)}]`,
    );
    expect(table.out).toMatch(new RegExp(`\\nA +openai_gpt-oss-120b +2 +${doc.a!.pairs} +${doc.a!.decision.toFixed(1)} `));
  }, 180_000);
  it("refuses trials beside --a, in one line", async () => {
    const r = await run(["compare", "--a", folders[0], "--trials-b", smaller]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("give both arms as trials (--trials-a DIR… --trials-b DIR…), not beside --a or --b");
  }, 60_000);
});
