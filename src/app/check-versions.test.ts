/**
 * `check` and `score` across BFCL versions on the real runs: the xLAM run (BFCL v3, raw
 * JSON-text steps) with no `--decoder` takes its handler's decoder from BFCL's registry;
 * `--bfcl-version` decides which data the rollouts are checked against; and a package
 * without the v3 manifest stops a v3 run in one line.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryIo } from "../cli/io.js";
import { runCli } from "../cli/program.js";
import { bfclDataDir, projectRoot, rolloutRunDir, sharedPath } from "../testing/shared.js";
import { requireFreshBuild } from "../testing/build.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-check-versions-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const xlam = (...parts: string[]) => sharedPath("rollouts", "xlam-v3", ...parts);

type Doc = {
  files: { decoder: { name: string; source: string; reason: string }; agreement: { verdictAgree: number } }[];
  exitCode: number;
};

async function check(extra: string[]): Promise<{ code: number; err: string; doc: Doc }> {
  const io = memoryIo();
  const code = await runCli(
    ["check", "--results", xlam("result"), "--bfcl-data", sharedPath("bfcl-v3"), "--scores", xlam("score"), "--format", "json", ...extra],
    io,
  );
  return { code, err: io.err.join(""), doc: JSON.parse(io.out.join("")) as Doc };
}

describe("check on the xLAM v3 run without --decoder", () => {
  it("takes the xlam decoder from BFCL's registry and gives --decoder xlam's verdicts (597 of 600 agree with the stored score files)", async () => {
    const chosen = await check([]);
    const forced = await check(["--decoder", "xlam"]);
    expect(chosen.doc.files.map((f) => f.decoder)).toEqual(
      Array(3).fill({
        name: "xlam",
        source: "registry",
        reason: "BFCL v3 registry key Salesforce/Llama-xLAM-2-8b-fc-r: SalesforceLlamaHandler, prompting mode",
      }),
    );
    expect(forced.doc.files.map((f) => [f.decoder.name, f.decoder.source])).toEqual(Array(3).fill(["xlam", "flag"]));
    // a registry choice is not announced (detection would be): stderr holds the verdicts that differ, the errors that
    // differ alone, and the notes naming why entries differ from the stored files
    expect(
      chosen.err
        .split("\n")
        .filter((l) => l !== "" && !/\[(verdicts-disagree|error-details-differ|difference-shared-default-start)\]$/.test(l)),
    ).toEqual([]);
    expect(chosen.err.split("\n").filter((l) => l.endsWith("[verdicts-disagree]"))).toHaveLength(3);
    const withoutChoice = (d: Doc) => ({ ...d, files: d.files.map((f) => ({ ...f, decoder: f.decoder.name })) });
    expect(withoutChoice(chosen.doc)).toEqual(withoutChoice(forced.doc));
    expect(chosen.doc.files.map((f) => f.agreement.verdictAgree)).toEqual([199, 199, 199]);
    expect([chosen.code, forced.code]).toEqual([1, 1]);
  }, 60_000);
});

describe("check --bfcl-version decides the data the rollouts are checked against", () => {
  it("a v4 run whose files were renamed BFCL_v3_: check and score stop on the v3 data (one line, exit 2); with --bfcl-version v4, check checks it as v4 with the run's own verdicts", async () => {
    const dir = join(tmp, "renamed", "model");
    mkdirSync(dir, { recursive: true });
    const source = join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-20b", "multi_turn");
    for (const c of ["base", "miss_func", "miss_param"])
      copyFileSync(join(source, `BFCL_v4_multi_turn_${c}_result.json`), join(dir, `BFCL_v3_multi_turn_${c}_result.json`));

    const asNamed = memoryIo();
    expect(await runCli(["check", "--results", dir, "--bfcl-data", bfclDataDir()], asNamed)).toBe(2);
    expect(asNamed.out.join("")).toBe("");
    expect(asNamed.err.join("")).toMatch(
      /^\S+model: error: model model: \d+ of \d+ rollouts were not generated on BFCL v3 data \(first: multi_turn_base_\d+, turn \d+\); rollouts look like BFCL v4 data; check them with the BFCL data they were generated on \[rollouts-other-data\]\n$/,
    );

    // score stops the same way: the v3 manifest is not the data these rollouts were generated on
    const scored = memoryIo();
    expect(await runCli(["score", "--results", dir, "--bootstrap", "0"], scored)).toBe(2);
    expect(scored.out.join("")).toBe("");
    expect(scored.err.join("")).toMatch(
      /^\S+model: error: model model: \d+ of \d+ rollouts were not generated on BFCL v3 data \(first: multi_turn_base_\d+, turn \d+\); rollouts look like BFCL v4 data; pass --manifest to force \[rollouts-other-data\]\n$/,
    );

    const asV4 = memoryIo();
    expect(await runCli(["check", "--results", dir, "--bfcl-data", bfclDataDir(), "--bfcl-version", "v4", "--format", "json"], asV4)).toBe(
      0,
    );
    const doc = JSON.parse(asV4.out.join("")) as { files: { category: string; version: string; entries: number; correct: number }[] };
    // the numbers of the same run under its own names (src/cli/commands/check.test.ts)
    expect(doc.files.map((f) => [f.category, f.version, f.entries, f.correct])).toEqual([
      ["base", "v4", 200, 95],
      ["miss_func", "v4", 200, 82],
      ["miss_param", "v4", 200, 83],
    ]);
  }, 60_000);
});

describe("a package without the v3 pair manifest", () => {
  it("stops score and check on a v3 run with one line and exit 2, and still scores v4 runs", () => {
    requireFreshBuild("cli/main.js");
    const pkg = join(tmp, "package");
    mkdirSync(pkg);
    cpSync(join(projectRoot, "dist"), join(pkg, "dist"), { recursive: true });
    cpSync(join(projectRoot, "data"), join(pkg, "data"), { recursive: true });
    copyFileSync(join(projectRoot, "package.json"), join(pkg, "package.json"));
    symlinkSync(join(projectRoot, "node_modules"), join(pkg, "node_modules"));
    rmSync(join(pkg, "data", "manifest-v3.json"));
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [join(pkg, "dist", "cli", "main.js"), ...args], { encoding: "utf8", timeout: 120_000 });
    const missing = `error: model Salesforce_Llama-xLAM-2-8b-fc-r holds BFCL v3 results and the package has no v3 pair manifest (${join(pkg, "data", "manifest-v3.json")}); build one with twinscore pairs --bfcl-data DIR --write-manifest FILE and`;

    const score = cli("score", "--results", xlam("result"), "--bootstrap", "0");
    expect([score.status, score.stdout]).toEqual([2, ""]);
    expect(score.stderr).toBe(`${missing} pass --manifest FILE [manifest-missing]\n`);
    const check = cli("check", "--results", xlam("result"), "--bfcl-data", sharedPath("bfcl-v3"));
    expect([check.status, check.stdout]).toEqual([2, ""]);
    expect(check.stderr).toBe(
      `${missing} put it at that path (check compares each rollout's recorded user turns with it) [manifest-missing]\n`,
    );

    const v4 = cli(
      "score",
      "--results",
      join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-20b"),
      "--bootstrap",
      "0",
      "--reading",
      "release",
    );
    expect(v4.status).toBe(0);
    expect(v4.stdout.split("\n")[0]).toMatch(/^Decision to act on 223 certified pairs \(Table 1\); release reading/);
  }, 120_000);
});
