import { copyFileSync, cpSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { projectRoot, rolloutRunDir, sharedPath } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

async function run(argv: string[]) {
  const io = memoryIo({ TWINSCORE_PYTHON: "/nonexistent/python3" }, projectRoot);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

const xlam = () => sharedPath("rollouts", "xlam-v3");
const main = () => rolloutRunDir("2025-11-12-main");

/** The xLAM run (generated on BFCL v3 data) with its files renamed BFCL_v4_. */
let relabelled: string;
beforeAll(() => {
  relabelled = mkdtempSync(join(tmpdir(), "twinscore-v3-as-v4-"));
  const dir = join(relabelled, "result", "xlam");
  mkdirSync(dir, { recursive: true });
  for (const c of ["base", "miss_func", "miss_param"]) {
    copyFileSync(
      join(xlam(), "result", "Salesforce_Llama-xLAM-2-8b-fc-r", `BFCL_v3_multi_turn_${c}_result.json`),
      join(dir, `BFCL_v4_multi_turn_${c}_result.json`),
    );
  }
});

const wrongData =
  "model xlam: 214 of 600 rollouts were not generated on BFCL v4 data (first: multi_turn_base_6, turn 4); rollouts look like BFCL v3 data; pass --manifest to force [rollouts-other-data]";

describe("twinscore score on runs of BFCL v3 and v4", () => {
  it("scores a v3 run on the v3 pairs, and says how many of them no hand ruling covers", async () => {
    const r = await run(["score", "--results", xlam(), "--bootstrap", "0", "--reading", "release", "--format", "json"]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.options).toMatchObject({
      pairsSelected: 234,
      pairsSelectedByVersion: { v3: 234 },
      uncertifiedByVersion: { v3: 121 },
      manifestForced: false,
    });
    expect(
      doc.models.map((m: { model: string; bfclVersion: string; numbers: { n: number } }) => [m.model, m.bfclVersion, m.numbers.n]),
    ).toEqual([["Salesforce_Llama-xLAM-2-8b-fc-r", "v3", 234]]);
    const table = await run(["score", "--results", xlam(), "--bootstrap", "0"]);
    expect(table.out.split("\n")[0]).toBe(
      "Decision to act on 234 pairs selected as for Table 1: 113 certified, 121 uncertified (their items differ from the ones the hand rulings were made on); 233 of 234 pairs decided: 1 with a side that ended before the anchor",
    );
  }, 120_000);

  it("names each model's version in a table that mixes them, and ranks no model against another version's", async () => {
    const r = await run([
      "score",
      "--results",
      join(main(), "result"),
      "--results",
      join(xlam(), "result"),
      "--bootstrap",
      "20",
      "--reading",
      "release",
      "--model",
      "openai_gpt-oss-20b",
      "--model",
      "Salesforce_Llama-xLAM-2-8b-fc-r",
    ]);
    expect(r.code).toBe(0);
    const lines = r.out.split("\n");
    expect(lines[0]).toBe(
      "Decision to act on 223 (BFCL v4) / 234 (BFCL v3) pairs selected as for Table 1: 223 (BFCL v4) + 113 (BFCL v3) certified, 121 (BFCL v3) uncertified (their items differ from the ones the hand rulings were made on); release reading: inference-error lines and rollouts that ended before the anchor read as no call, as the paper's released scorer does",
    );
    expect(lines[2]).toMatch(/^model +bfcl +N +act /);
    expect(lines.find((l) => l.includes("openai_gpt-oss-20b "))).toMatch(/ v4 +223 +89\.7 +74\.4 +82\.1 /);
    expect(lines.find((l) => l.includes("Salesforce_Llama-xLAM-2-8b-fc-r "))).toMatch(/ v3 +234 /);
    const json = JSON.parse(
      (
        await run([
          "score",
          "--results",
          join(main(), "result"),
          "--results",
          join(xlam(), "result"),
          "--bootstrap",
          "20",
          "--format",
          "json",
        ])
      ).out,
    );
    expect(json.models.every((m: { rank1: number | null }) => m.rank1 === null)).toBe(true);
  }, 120_000);

  it("stops, in one line and exit 2, on rollouts generated on other data than their file names say; --manifest forces", async () => {
    const r = await run(["score", "--results", relabelled, "--bootstrap", "0"]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toBe(`${join(relabelled, "result", "xlam")}: error: ${wrongData}\n`);
    const forced = await run([
      "score",
      "--results",
      relabelled,
      "--bootstrap",
      "0",
      "--reading",
      "release",
      "--manifest",
      join(projectRoot, "data", "manifest-v3.json"),
      "--format",
      "json",
    ]);
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.out).models[0].numbers.n).toBe(234);
    // the relabelled folder ("xlam") is not in BFCL's registry: its decoder is detected from its steps, and said
    expect(forced.err).toMatch(
      /^note: xlam: decoder xlam \(not in BFCL v3's model registry; \d+ of 200 sampled text steps decode to calls with xlam[^\n]*\) \[decoder-detected\]\n$/,
    );
    expect(JSON.parse(forced.out).models[0].decoder).toMatchObject({ name: "xlam", source: "detected" });
  }, 120_000);

  it("report, compare, verify, check and judge stop the same way", async () => {
    const report = await run(["report", "--results", relabelled, "--bootstrap", "0", "--out", join(relabelled, "report.html")]);
    // the rollouts are checked against their data in the one reading pass: the run's progress line, then the stop
    expect([report.code, report.err]).toEqual([
      2,
      `report: scoring ${basename(relabelled)} (${relabelled})\n${join(relabelled, "result", "xlam")}: error: ${wrongData}\n`,
    ]);
    // two arms of the same files, in two folders (one folder as both arms is refused before anything is read)
    const armB = `${relabelled}-b`;
    cpSync(relabelled, armB, { recursive: true });
    const compare = await run(["compare", "--a", relabelled, "--b", armB, "--bootstrap", "0"]);
    expect(compare.code).toBe(2);
    expect(compare.err).toContain(wrongData);
    // verify reads the models its expected file names, in the runs it matches: the same files as one of those
    const namedRoot = mkdtempSync(join(tmpdir(), "twinscore-v3-as-v4-named-"));
    const named = join(namedRoot, "2025-11-12-main", "result", "openai_gpt-oss-120b");
    mkdirSync(named, { recursive: true });
    for (const c of ["base", "miss_func", "miss_param"])
      copyFileSync(
        join(relabelled, "result", "xlam", `BFCL_v4_multi_turn_${c}_result.json`),
        join(named, `BFCL_v4_multi_turn_${c}_result.json`),
      );
    const verify = await run([
      "verify",
      "--expected",
      join(projectRoot, "data", "expected", "gpt-oss.json"),
      "--results",
      join(namedRoot, "2025-11-12-main"),
    ]);
    expect(verify.code).toBe(2);
    expect(verify.err).toContain(wrongData.replace("model xlam", "model openai_gpt-oss-120b"));
    const check = await run(["check", "--results", relabelled, "--bfcl-data", sharedPath("bfcl-v4")]);
    expect([check.code, check.err]).toEqual([
      2,
      `${join(relabelled, "result", "xlam")}: error: ${wrongData.replace("pass --manifest to force", "check them with the BFCL data they were generated on")}\n`,
    ]);
    const judge = await run(["judge", "--results", relabelled, "--dry-run"]);
    expect([judge.code, judge.err]).toEqual([
      2,
      `${join(relabelled, "result", "xlam")}: error: ${wrongData.replace("pass --manifest to force", "name the result files after the BFCL version they were generated on")}\n`,
    ]);
    const mixed = await run([
      "report",
      "--results",
      join(main(), "result"),
      "--results",
      join(xlam(), "result"),
      "--bootstrap",
      "0",
      "--out",
      join(relabelled, "mixed.html"),
    ]);
    expect(mixed.code).toBe(2);
    expect(mixed.err).toMatch(
      /^error: report puts every model on one pair manifest, and these result files are of several BFCL versions: v3 \(.*\); v4 \(.*\); give one version's runs, or --manifest FILE to force one \[bfcl-version-mixed\]\n$/,
    );
  }, 120_000);
});
