import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bfclDataDir, projectRoot, sharedPath } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

const funnel =
  "400 should-ask items → dropped 14 bad keys, 4 multi-anchor, 2 shape differs → 380 → dropped 6 whose call strings differ, " +
  "9 whose dialogue before the anchor differs → 365 content-verified pairs (182 miss_func, 183 miss_param) → 231 candidates " +
  "(the other 134: 132 read-only, 2 login-only) → 8 construction errors → 223 scored pairs (116 miss_func, 107 miss_param) " +
  "on 151 distinct base twins, 27 of them compound.";

/** No BFCL data reachable: no flag, no BFCL_DATA_DIR, and a Python that does not exist. */
const noData = { TWINSCORE_PYTHON: "/nonexistent/python3" };

async function run(argv: string[], env: Record<string, string | undefined> = noData) {
  const io = memoryIo(env, projectRoot);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

describe("twinscore pairs on ../shared/bfcl-v4", () => {
  it("prints the funnel exactly, then the per-item table", async () => {
    const r = await run(["pairs", "--bfcl-data", bfclDataDir()]);
    expect(r.code).toBe(0);
    const lines = r.out.split("\n");
    expect(lines[0]).toBe(funnel);
    expect(lines.slice(1, 3)).toEqual([
      "184 distinct base anchor turns among the 223 scored pairs; 188 distinct base twins among the 365 content-verified pairs.",
      "Restoring the 14 bad keys adds 7 scored pairs (230); they are never scored by default.",
    ]);
    expect(lines[4]).toMatch(/^miss_id +category +base_id +anchor_turn +status +reason$/);
    expect(lines[6]).toMatch(/^multi_turn_miss_func_0 +miss_func +multi_turn_base_0 +2 +excluded +gold anchor turn is read-only$/);
    expect(r.err).toBe("");
  });

  it("lists one TSV row per should-ask item, base_id/anchor_turn empty where they do not exist", async () => {
    const r = await run(["pairs", "--bfcl-data", bfclDataDir(), "--format", "tsv"]);
    const rows = r.out
      .trimEnd()
      .split("\n")
      .map((l) => l.split("\t"));
    expect(rows[0]).toEqual(["miss_id", "category", "base_id", "anchor_turn", "status", "reason"]);
    expect(rows).toHaveLength(401);
    const status = (s: string) => rows.filter((c) => c[4] === s).length;
    expect([status("scored"), status("excluded"), status("dropped")]).toEqual([223, 142, 35]);
    const row = (id: string) => rows.find((c) => c[0] === `multi_turn_${id}`);
    expect(row("miss_func_167")).toEqual([
      "multi_turn_miss_func_167",
      "miss_func",
      "multi_turn_base_167",
      "",
      "dropped",
      expect.stringMatching(/^multi-anchor: /),
    ]);
    expect(row("miss_param_122")).toEqual([
      "multi_turn_miss_param_122",
      "miss_param",
      "multi_turn_base_122",
      "0",
      "scored",
      "certified valid",
    ]);
    expect(row("miss_func_42")?.slice(4)).toEqual(["excluded", "anchor certification: construction error"]);
    expect(row("miss_func_37")?.slice(4)).toEqual(["scored", "certified compound"]);
  });

  it("gives the funnel and the rows as JSON", async () => {
    const r = await run(["pairs", "--bfcl-data", bfclDataDir(), "--format", "json"]);
    const json = JSON.parse(r.out) as { funnel: { scored: number }; funnelLine: string; items: unknown[] };
    expect(json.funnel.scored).toBe(223);
    expect(json.funnelLine).toBe(funnel);
    expect(json.items).toHaveLength(400);
  });

  it("writes a manifest byte-identical to the committed one, atomically", async () => {
    const dir = mkdtempSync(join(tmpdir(), "twinscore-pairs-"));
    const target = join(dir, "manifest.json");
    const r = await run([
      "pairs",
      "--bfcl-data",
      bfclDataDir(),
      "--certification",
      sharedPath("certification"),
      "--write-manifest",
      target,
      "--format",
      "csv",
    ]);
    expect(r.code).toBe(0);
    expect(readFileSync(target, "utf8")).toBe(readFileSync(join(projectRoot, "data", "manifest.json"), "utf8"));
    expect(readdirSync(dir)).toEqual(["manifest.json"]);
    expect(r.err).toMatch(/^note: wrote .*manifest\.json \(365 pairs, 35 dropped\) \[written\]\n$/);
    expect(r.out.split("\n")[0]).toBe("miss_id,category,base_id,anchor_turn,status,reason");
  });

  it("refuses to write the manifest over one of the files it reads (a data file, a function doc, a certification file): one line, exit 2, the file unchanged", async () => {
    const dir = mkdtempSync(join(tmpdir(), "twinscore-pairs-input-"));
    cpSync(bfclDataDir(), join(dir, "data"), { recursive: true });
    cpSync(sharedPath("certification"), join(dir, "certification"), { recursive: true });
    for (const input of [
      join("data", "BFCL_v4_multi_turn_base.json"),
      join("data", "multi_turn_func_doc", "gorilla_file_system.json"),
      join("certification", "rulings.tsv"),
    ]) {
      const target = join(dir, input);
      const before = readFileSync(target);
      const r = await run([
        "pairs",
        "--bfcl-data",
        join(dir, "data"),
        "--certification",
        join(dir, "certification"),
        "--write-manifest",
        target,
        "--format",
        "csv",
      ]);
      expect(r.code).toBe(2);
      expect(r.err).toBe(
        `${target}: error: --write-manifest names a file this command reads; refusing to write over it [output-is-input]\n`,
      );
      expect(readFileSync(target).equals(before)).toBe(true);
    }
    // the data folder still loads
    expect((await run(["pairs", "--bfcl-data", join(dir, "data"), "--format", "csv"])).code).toBe(0);
  }, 60_000);

  it("finds the data through BFCL_DATA_DIR", async () => {
    const r = await run(["pairs", "--format", "markdown"], { ...noData, BFCL_DATA_DIR: bfclDataDir() });
    expect(r.code).toBe(0);
    expect(r.out.split("\n")[0]).toBe("| miss_id | category | base_id | anchor_turn | status | reason |");
    expect(r.err).toBe("");
  });
});

describe("twinscore pairs on ../shared/bfcl-v3", () => {
  it("reports the misaligned base item on stderr, drops its twins, goes on and writes data/manifest-v3.json byte for byte", async () => {
    const dir = mkdtempSync(join(tmpdir(), "twinscore-pairs-"));
    const target = join(dir, "manifest-v3.json");
    const r = await run(["pairs", "--bfcl-data", sharedPath("bfcl-v3"), "--write-manifest", target]);
    expect(r.code).toBe(0);
    const err = r.err.trimEnd().split("\n");
    expect(err[0]).toBe(
      `${sharedPath("bfcl-v3", "possible_answer", "BFCL_v3_multi_turn_base.json")}:155: warning: multi_turn_base_154 has 6 reference turns but its question has 5; left out of the pairs [turns-misaligned]`,
    );
    expect(err[1]).toMatch(/^note: wrote .*manifest-v3\.json \(368 pairs, 32 dropped\) \[written\]$/);
    expect(err).toHaveLength(2);
    expect(readFileSync(target, "utf8")).toBe(readFileSync(join(projectRoot, "data", "manifest-v3.json"), "utf8"));
    const lines = r.out.split("\n");
    expect(lines[0]).toBe(
      "400 should-ask items → dropped 5 bad keys, 2 misaligned, 4 multi-anchor, 0 shape differs → 389 → dropped 13 whose call strings differ, " +
        "8 whose dialogue before the anchor differs → 368 content-verified pairs (183 miss_func, 185 miss_param) → 237 candidates " +
        "(the other 131: 129 read-only, 2 login-only) → 3 construction errors → 234 scored pairs (119 miss_func, 115 miss_param) " +
        "on 154 distinct base twins, 22 of them compound, 121 uncertified (their items differ from the ones the hand rulings were made on).",
    );
    expect(lines[3]).toBe(
      "Not applied, because their items differ from the ones they were made on: 9 bad keys and 10 certification rulings (construction errors, compound turns).",
    );
  });
  it("says per row which pairs are uncertified and why, and which items are misaligned", async () => {
    const r = await run(["pairs", "--bfcl-data", sharedPath("bfcl-v3"), "--format", "tsv"]);
    const rows = r.out
      .trimEnd()
      .split("\n")
      .map((l) => l.split("\t"));
    const row = (id: string) => rows.find((c) => c[0] === `multi_turn_${id}`);
    expect(row("miss_func_154")?.slice(4)).toEqual([
      "dropped",
      "misaligned: base twin multi_turn_base_154 has 6 reference turns but its question has 5",
    ]);
    expect(rows.filter((c) => c[5].startsWith("uncertified: differs in "))).toHaveLength(121);
    expect(row("miss_func_37")?.slice(4)).toEqual(["scored", "certified compound"]);
  });
});

describe("twinscore pairs without BFCL data", () => {
  it("lists the committed manifest and says so", async () => {
    const r = await run(["pairs"]);
    expect(r.code).toBe(0);
    expect(r.out.split("\n")[0]).toBe(funnel);
    expect(r.err).toMatch(/^note: no BFCL data directory given .*data\/manifest\.json \[data-source\]\n$/);
  });
  it("refuses --write-manifest with one line and exit 2", async () => {
    const dir = mkdtempSync(join(tmpdir(), "twinscore-pairs-"));
    const r = await run(["pairs", "--write-manifest", join(dir, "m.json")]);
    expect(r.code).toBe(2);
    expect(r.err).toBe("error: --write-manifest needs BFCL data: pass --bfcl-data DIR or set BFCL_DATA_DIR [bfcl-data-missing]\n");
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("twinscore pairs on bad input", () => {
  it("names a missing directory in one line, exits 2, prints nothing on stdout and writes nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "twinscore-pairs-"));
    const r = await run(["pairs", "--bfcl-data", "/nonexistent/bfcl", "--write-manifest", join(dir, "m.json")]);
    expect(r.code).toBe(2);
    expect(r.err).toBe("/nonexistent/bfcl: error: BFCL data directory not found [file-missing]\n");
    expect(r.out).toBe("");
    expect(existsSync(join(dir, "m.json"))).toBe(false);
  });
  it("reports a missing certification file", async () => {
    const r = await run(["pairs", "--bfcl-data", bfclDataDir(), "--certification", "/nonexistent/cert"]);
    expect(r.code).toBe(2);
    expect(r.err).toBe("/nonexistent/cert/bad-keys.tsv: error: certification file missing [file-missing]\n");
  });
  it("rejects an unknown format", async () => {
    const r = await run(["pairs", "--format", "xml"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/argument 'xml' is invalid/);
  });
  it("teaches in --help and its help topic", async () => {
    const options = await run(["pairs", "--help"]);
    expect(options.code).toBe(0);
    expect(options.out).toContain("--bfcl-data <dir>");
    expect(options.out).toMatch(/\nMore: twinscore help pairing, /);
    const r = await run(["help", "pairing"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("status (scored | excluded | dropped)");
    const help = r.out.replace(/\s+/g, " ");
    expect(help).toContain("A ruling applies to an item only where the item is equal to the one it was made on");
    expect(help).toContain("Not compared: path and excluded_function");
    expect(help).toContain("scored as 'uncertified' and counted in the funnel");
  });
});
