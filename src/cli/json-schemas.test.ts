/**
 * Every `--format json` document carries its schema version, the twinscore version and the manifests' digests,
 * and validates (Ajv, draft 2020-12, strict) against the JSON Schema the package ships for its command, on the
 * real runs in ../shared. More in this folder's README.md.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { memoryIo } from "./io.js";
import { runCli } from "./program.js";
import { TWINSCORE_VERSION } from "../messages/version.js";
import { manifestSha256 } from "../pairs/digest.js";
import { loadCommittedManifest } from "../io/manifest.js";
import { bfclDataDir, projectRoot, rolloutRunDir, sharedPath } from "../testing/shared.js";
import { serverPool } from "../testing/run-fixtures.js";
import { startPolicyServer } from "../testing/policies.js";
import { policyResponder } from "../testing/policy-runs.js";
import { startKeyEchoModel } from "../testing/hostile-servers.js";

const schemaDir = join(projectRoot, "data", "schemas");
const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
const validators = new Map(
  readdirSync(schemaDir).map(
    (f) => [f.replace(".schema.json", ""), ajv.compile(JSON.parse(readFileSync(join(schemaDir, f), "utf8")) as object)] as const,
  ),
);
const tmp = mkdtempSync(join(tmpdir(), "twinscore-schemas-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const { serve } = serverPool();

const digest = (v: "v3" | "v4") => {
  const m = loadCommittedManifest(v);
  if (!m.ok) throw new Error(`the ${v} manifest does not load`);
  return manifestSha256(m.value);
};

/** The schemas that name every top-level field of their document (additionalProperties: false). */
const strictAtTop = new Set(["report", "verify", "pairs", "demo", "judge"]);

/** Run a command with --format json; its document, validated against its command's schema. */
async function validated(args: readonly string[], schema: string, env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const io = memoryIo(env);
  await runCli([...args, "--format", "json"], io);
  const text = io.out.join("");
  expect(text, io.err.join("")).not.toBe("");
  const doc = JSON.parse(text) as Record<string, unknown>;
  const validate = validators.get(schema)!;
  expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
  expect(Object.keys(doc).slice(0, 4)).toEqual(["schemaVersion", "twinscoreVersion", "manifestSha256", "command"]);
  expect(doc.twinscoreVersion).toBe(TWINSCORE_VERSION);
  // the schemas that name every field of their document refuse one they do not name
  if (strictAtTop.has(schema)) expect(validate({ ...doc, unnamedField: 1 })).toBe(false);
  return doc;
}

describe("the shipped JSON Schemas", () => {
  it("one schema per command with a JSON document, and one for run.json; the version is package.json's", () => {
    expect([...validators.keys()].sort()).toEqual([
      "check",
      "compare",
      "compare-trials",
      "demo",
      "judge",
      "pairs",
      "report",
      "run",
      "run-record",
      "score",
      "verify",
    ]);
    expect((JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8")) as { version: string }).version).toBe(TWINSCORE_VERSION);
  });

  it("score, compare, check and report on the real runs validate, with the package manifests' digests", async () => {
    const [main, fixes] = [join(rolloutRunDir("2025-11-12-main"), "result"), join(rolloutRunDir("2025-11-12-harmony-fixes"), "result")];
    const score = await validated(["score", "--results", main, "--bootstrap", "0"], "score");
    expect(score.manifestSha256).toEqual({ v4: digest("v4"), v3: digest("v3") });
    // the numbers are the runs' own (pinned elsewhere): decision 82.39 for gpt-oss-120b on main
    expect(
      (score.models as { model: string; numbers: { decision: number } | null }[]).find((m) => m.model === "openai_gpt-oss-120b")?.numbers
        ?.decision,
    ).toBeCloseTo(82.394, 2);
    await validated(["score", "--results", sharedPath("rollouts", "xlam-v3", "result"), "--bootstrap", "0"], "score");
    await validated(["compare", "--a", main, "--b", fixes, "--bootstrap", "0"], "compare");
    await validated(["check", "--results", main, "--bfcl-data", bfclDataDir()], "check");
    await validated(["report", "--results", main, "--bootstrap", "0", "--out", join(tmp, "report.html")], "report");
    const forced = await validated(
      ["score", "--results", main, "--bootstrap", "0", "--manifest", join(projectRoot, "data", "manifest.json")],
      "score",
    );
    expect(forced.manifestSha256).toEqual({ forced: digest("v4") });
  }, 600_000);

  it("report (trials, aligned, figures), verify, pairs, demo and judge on the real runs validate against their strict schemas", async () => {
    const [main, fixes] = [rolloutRunDir("2025-11-12-main"), rolloutRunDir("2025-11-12-harmony-fixes")];
    const trials = [main, fixes].map((r) => join(r, "result", "openai_gpt-oss-120b"));
    const t = await validated(["report", "--trials-of", ...trials, "--bootstrap", "200", "--out", join(tmp, "trials.html")], "report");
    expect(t.trials).toMatchObject({ trials: 2, pairs: 216, pairsWithTrials: 213 });
    const figures = join(tmp, "figures");
    mkdirSync(figures);
    const full = await validated(
      [
        "report",
        "--results",
        main,
        "--results",
        fixes,
        "--compare",
        "2025-11-12-main",
        "2025-11-12-harmony-fixes",
        "--bfcl-data",
        bfclDataDir(),
        "--bootstrap",
        "0",
        "--figures",
        figures,
        "--out",
        join(tmp, "full.html"),
      ],
      "report",
    );
    expect([(full.aligned as unknown[]).length, (full.emptyTurns as unknown[]).length, full.comparisons]).toEqual([3, 16, 1]);
    const verify = await validated(
      ["verify", "--expected", join(projectRoot, "data", "expected", "gpt-oss.json"), "--results", main, "--scores", main],
      "verify",
    );
    expect(verify.summary).toMatchObject({ fail: 0 });
    const pairs = await validated(["pairs", "--bfcl-data", bfclDataDir()], "pairs");
    expect([(pairs.funnel as { scored: number }).scored, (pairs.items as unknown[]).length]).toEqual([223, 400]);
    const demo = await validated(["demo", "--bootstrap", "0"], "demo");
    expect(demo.pairs).toBe(223);
    const judge = await serve(startKeyEchoModel({ bodies: [] }, { reply: () => "asks_other" }));
    const labels = join(tmp, "labels.jsonl");
    const judged = await validated(
      [
        "judge",
        "--results",
        main,
        "--model",
        "openai_gpt-oss-120b",
        "--include-silent",
        "--endpoint",
        judge.url,
        "--judge-model",
        "stub",
        "--key-env",
        "JUDGE_KEY",
        "--labels",
        labels,
        "--no-cache-dir",
      ],
      "judge",
      { JUDGE_KEY: "sk-test" },
    );
    expect(judged.run).toMatchObject({ labelled: 145, failures: [] });
  }, 600_000);

  it("run's document and its run.json validate; a dry run's too", async () => {
    const srv = await serve(startPolicyServer(policyResponder("always-ask"), { maxRequests: 50 }));
    const out = join(tmp, "run");
    const base = ["run", "--endpoint", srv.url, "--model", "scripted/policy", "--out", out, "--bfcl-data", bfclDataDir(), "--limit", "2"];
    const dry = await validated([...base, "--dry-run"], "run");
    expect(dry).toMatchObject({ dryRun: true, record: null, manifestSha256: { v4: digest("v4") } });
    const done = await validated(base, "run");
    expect(done).toMatchObject({ dryRun: false, manifestSha256: { v4: digest("v4") } });
    const record = JSON.parse(readFileSync(join(out, "scripted_policy", "run.json"), "utf8")) as object;
    const validate = validators.get("run-record")!;
    expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
    expect(done.record).toEqual(record);
  }, 120_000);
});
