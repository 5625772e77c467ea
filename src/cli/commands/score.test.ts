import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { demoFiles } from "../../decision/demo.js";
import { formatDecimal1 } from "../../decision/format.js";
import { readingPairs } from "../../decision/readings.js";
import { defaultScoreOptions } from "../../decision/types.js";
import { loadManifest } from "../../io/manifest.js";
import { projectRoot, rolloutRunDir } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

const categories = ["base", "miss_func", "miss_param"] as const;
let root = "";

/** A fixture tree: the real gpt-oss-120b files (2025-11-12-main) and a synthetic oracle run written by the demo generator. */
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "twinscore-score-cli-"));
  const m = loadManifest();
  if (!m.ok) throw new Error("manifest");
  const oracle = demoFiles("oracle", readingPairs(m.value, defaultScoreOptions));
  if (!oracle.ok) throw new Error("demo files");
  for (const c of categories) {
    const real = join(root, "runs", "openai_gpt-oss-120b", "multi_turn");
    mkdirSync(real, { recursive: true });
    copyFileSync(
      join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b", "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`),
      join(real, `BFCL_v4_multi_turn_${c}_result.json`),
    );
    const synthetic = join(root, "runs", "oracle", "multi_turn");
    mkdirSync(synthetic, { recursive: true });
    writeFileSync(join(synthetic, `BFCL_v4_multi_turn_${c}_result.json`), oracle.value[c]);
  }
});

async function run(argv: string[]) {
  const io = memoryIo({}, root);
  const code = await runCli(argv, io);
  const clean = (s: string) => s.split(root).join("<TMP>");
  return { code, out: clean(io.out.join("")), err: clean(io.err.join("")) };
}

describe("twinscore score on a fixture tree (real gpt-oss-120b + synthetic oracle)", () => {
  it("prints the table (the files used only under --verbose), and one summary line for the model's inference-error warnings", async () => {
    const r = await run(["score", "--results", "runs"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatchSnapshot();
    expect(r.err).toBe(
      "warning: openai_gpt-oss-120b: 12 warnings reading its files (12 inference-error); --verbose lists each with file:line [warnings]\n" +
        // neither folder is in BFCL's model registry: each says which decoder its steps were read with
        "note: openai_gpt-oss-120b: decoder fc (not in BFCL's model registry; 197 of 200 sampled record steps decode to calls with fc) [decoder-detected]\n" +
        "note: oracle: decoder fc (not in BFCL's model registry; 200 of 200 sampled record steps decode to calls with fc) [decoder-detected]\n",
    );
  });

  it("--verbose lists every warning with file:line", async () => {
    const r = await run(["score", "--results", "runs", "--verbose"]);
    expect(r.code).toBe(0);
    expect(r.err).toMatchSnapshot();
  });

  it("--format csv and markdown print the same cells; the pairs left out are counted beside the numbers", async () => {
    const csv = await run(["score", "--results", "runs", "--format", "csv"]);
    expect(csv.out).toBe(
      "model,N,act,hold,decision,ci_low,ci_high,hold+c,dec+c,pair,mf,mp,error,unreached,undecoded\n" +
        "openai_gpt-oss-120b,213,96.7,68.1,82.4,78.7,85.9,73.7,85.2,65.7,80.2,84.6,9,1,16\n" +
        "oracle,223,100.0,100.0,100.0,100.0,100.0,100.0,100.0,100.0,100.0,100.0,0,0,0\n",
    );
    // the release reading reads the 9 inference-error lines and the short rollout as no call: the paper's numbers
    const release = await run(["score", "--results", "runs", "--format", "csv", "--reading", "release"]);
    expect(release.out.split("\n")[1]).toBe("openai_gpt-oss-120b,223,96.9,69.5,83.2,79.7,86.5,74.9,85.9,67.3,81.9,84.6,9,1,16");
    const md = await run(["score", "--results", "runs", "--format", "markdown", "--model", "oracle", "--verbose"]);
    expect(md.out).toMatchSnapshot();
    expect(md.err).toContain("note: oracle: base read from <TMP>/runs/oracle/multi_turn/BFCL_v4_multi_turn_base_result.json [file-used]\n");
  });

  it("--format json is the document: every number as a number (no printed strings), the files used, the reading counts and the problems", async () => {
    const r = await run(["score", "--results", "runs", "--format", "json", "--model", "openai_gpt-oss-120b"]);
    const doc = JSON.parse(r.out);
    expect(doc.options).toEqual({
      pairSet: "certified",
      countLogin: false,
      reading: "decided",
      maxUndecided: 10,
      pairsSelected: 223,
      pairsSelectedByVersion: { v4: 223 },
      uncertifiedByVersion: { v4: 0 },
      manifestForced: false,
    });
    const m = doc.models[0];
    expect(m.bfclVersion).toBe("v4");
    expect(m.numbers).toMatchObject({
      pairs: 223,
      n: 213,
      undecided: { missing: 0, "inference-error": 9, "not-reached": 1, undecidable: 0 },
    });
    expect(m.undecided).toEqual({ pairs: 223, total: 10, share: (100 * 10) / 223, byStatus: m.numbers.undecided });
    expect(m.noHeadline).toBeNull();
    expect(
      [
        m.numbers.act,
        m.numbers.hold,
        m.numbers.decision,
        m.numbers.holdCredited,
        m.numbers.decisionCredited,
        m.numbers.pair,
        m.numbers.decisionByCategory.miss_func,
        m.numbers.decisionByCategory.miss_param,
      ].map(formatDecimal1),
    ).toEqual(["96.7", "68.1", "82.4", "73.7", "85.2", "65.7", "80.2", "84.6"]);
    expect(JSON.stringify(doc)).not.toMatch(/"\d+\.\d+"/); // no number printed as a string anywhere
    expect(m.numbers.act).toBeCloseTo((100 * 206) / 213, 12);
    expect(m.counts).toEqual({ decodeFailures: 16, shortRollouts: 1, inferenceErrors: 9 });
    expect(m.filesUsed.miss_param.file).toBe("<TMP>/runs/openai_gpt-oss-120b/multi_turn/BFCL_v4_multi_turn_miss_param_result.json");
    expect(doc.problems).toEqual([]);
    // a warning per error line of the three files, the 9 on scored pairs' sides and 3 on lines no pair of this reading reads
    expect(m.problems.map((p: { code: string }) => p.code)).toEqual(Array(12).fill("inference-error"));
    expect(doc.exitCode).toBe(0);
  });

  it("--per-item writes one CSV row per model and pair, atomically, with act/hold as 0/1 and each side's status", async () => {
    const r = await run(["score", "--results", "runs", "--per-item", "items.csv", "--format", "csv"]);
    expect(r.code).toBe(0);
    const lines = readFileSync(join(root, "items.csv"), "utf8").trimEnd().split("\n");
    expect(lines[0]).toBe(
      "model,miss_id,category,base_id,anchor_turn,status,scored,act,hold,hold_credited,compound,calls_on_base,calls_on_miss,base_status,miss_status,decode_failures,miss_text",
    );
    expect(lines.length).toBe(1 + 2 * 223);
    const row37 = lines.find((l) => l.startsWith("openai_gpt-oss-120b,multi_turn_miss_func_37,"))!;
    expect(row37.split(",").slice(0, 11)).toEqual([
      "openai_gpt-oss-120b",
      "multi_turn_miss_func_37",
      "miss_func",
      "multi_turn_base_37",
      "2",
      "decided",
      "1",
      "1",
      "0",
      "1",
      "1",
    ]);
    // an inference-error side: no decision there (empty act or hold), the pair not scored; release reads it as no call
    const error101 = lines.find((l) => l.startsWith("openai_gpt-oss-120b,multi_turn_miss_func_101,"))!.split(",");
    expect([error101[5], error101[6], error101[8], error101[14]]).toEqual(["inference-error", "0", "", "inference-error"]);
    await run(["score", "--results", "runs", "--per-item", "release.csv", "--format", "csv", "--reading", "release"]);
    const released = readFileSync(join(root, "release.csv"), "utf8")
      .split("\n")
      .find((l) => l.startsWith("openai_gpt-oss-120b,multi_turn_miss_func_101,"))!
      .split(",");
    expect([released[5], released[6], released[8]]).toEqual(["inference-error", "1", "1"]);
    expect(readdirSync(root).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    expect(r.err).toContain("wrote <TMP>/items.csv (446 rows)");
  });

  it("--count-login, --uncertified and --all-pairs change the pair set", async () => {
    const n = async (flag: string) =>
      (
        await run(["score", "--results", "runs", "--format", "csv", "--model", "openai_gpt-oss-120b", "--reading", "release", flag])
      ).out.split("\n")[1];
    expect(await n("--count-login")).toBe("openai_gpt-oss-120b,225,96.9,68.9,82.9,79.4,86.2,73.8,85.3,66.7,81.2,84.7,9,1,16");
    expect(await n("--uncertified")).toMatch(/^openai_gpt-oss-120b,231,97\.0,67\.5,82\.3,[\d.]+,[\d.]+,72\.7,84\.8,65\.4,82\.1,82\.5,/);
    expect(await n("--all-pairs")).toMatch(/^openai_gpt-oss-120b,365,62\.2,77\.5,69\.9,[\d.]+,[\d.]+,80\.8,71\.5,41\.9,69\.5,70\.2,/);
  });
});

describe("twinscore score exit codes and bad input", () => {
  it("--strict exits 1 when a problem was met (here: inference-error lines), still printing the table", async () => {
    const r = await run(["score", "--results", "runs", "--strict", "--format", "csv"]);
    expect(r.code).toBe(1);
    expect(r.out.split("\n").length).toBe(4);
  });

  it("--strict exits 0 when nothing was wrong (the synthetic oracle)", async () => {
    expect((await run(["score", "--results", "runs", "--strict", "--model", "oracle"])).code).toBe(0);
  });

  it("exits 2 when nothing can be scored, with one line per reason", async () => {
    const r = await run(["score", "--results", "nope", "--results", "runs", "--model", "gpt-4"]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      "<TMP>/nope: error: results directory not found [results-missing]\n" +
        "error: --model gpt-4: no such model directory under the results (found: openai_gpt-oss-120b, oracle) [model-missing]\n",
    );
    // nothing could be shown: stdout stays empty (no title, no empty table), the reasons are on stderr
    expect(r.out).toBe("");
  });

  it("exits 2 on a model with a category missing, naming it", async () => {
    const only = join(root, "partial", "m", "multi_turn");
    mkdirSync(only, { recursive: true });
    copyFileSync(
      join(root, "runs", "oracle", "multi_turn", "BFCL_v4_multi_turn_base_result.json"),
      join(only, "BFCL_v4_multi_turn_base_result.json"),
    );
    const r = await run(["score", "--results", "partial"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("error: model m: no readable miss_func, miss_param result file");
  });

  it.each([
    [["score"], "give at least one --results DIR"],
    [["score", "--results", "runs", "--uncertified", "--all-pairs"], "--uncertified and --all-pairs cannot be combined"],
    [["check", "--results", "runs", "--threads", "0"], "--threads must be an integer >= 1"],
    [["score", "--results", "runs", "--manifest", "missing.json"], "manifest not found"],
    [["score", "--results", "runs", "--per-item", "no/such/dir/items.csv"], "output folder does not exist"],
  ])("bad arguments %j exit 2: %s", async (argv, message) => {
    const r = await run(argv);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
    expect(existsSync(join(root, "no"))).toBe(false);
  });

  it("its help topics teach what the columns mean and which layouts are read", async () => {
    expect((await run(["help", "columns"])).out).toMatch(/\n {2}hold\+c +hold, crediting on the 27 compound turns/);
    expect((await run(["help", "layouts"])).out).toContain("DIR/<model>/BFCL_v3_multi_turn_<category>_result.json");
    expect(projectRoot).not.toBe("");
  });
});
