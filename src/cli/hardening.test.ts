/**
 * Bad input, faults and a new user's mistakes, each on a mutated copy of a real run built
 * here (nothing mutated is committed): a failed read never poisons another file, nothing
 * to score never prints 0.0, special files never hang a command or get replaced, models of
 * several runs never collapse into one, and every message comes first and once.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scoreRuns } from "../app/score.js";
import { MAX_SAMPLED_STEP } from "../bfcl/decode/sample.js";
import { requireFreshBuild } from "../testing/build.js";
import {
  copyRun as copyRunOf,
  resultName,
  runCliCaptured,
  scoreJson as scoreJsonOf,
  scoreName,
  scratchFolder,
  TWIN_CATEGORIES,
} from "../testing/cli-runs.js";
import { linkedFilesTree, linkedMultiTurnTree } from "../testing/linked-trees.js";
import { bfclDataDir, projectRoot, rolloutRunDir } from "../testing/shared.js";

const scratch = scratchFolder("twinscore-hardening-");
const tmp = scratch.dir;
const fresh = scratch.fresh;
afterAll(scratch.remove);

const main = rolloutRunDir("2025-11-12-main");
const fixes = rolloutRunDir("2025-11-12-harmony-fixes");
const models = ["openai_gpt-oss-120b", "openai_gpt-oss-20b"] as const;
const categories = TWIN_CATEGORIES;

/** A writable copy of a real run (`result/` and `score/`), as `<dest>/result/<model>/multi_turn/…`. */
const copyRun = (from: string, dest: string, opts: { scores?: boolean; only?: readonly string[] } = {}) =>
  copyRunOf(from, dest, opts.only ?? models, opts);
const run = (argv: string[], cwd = tmp) => runCliCaptured(argv, cwd);
const scoreJson = (argv: string[]) => scoreJsonOf(argv, tmp);

describe("a failed read does not poison the next file", () => {
  it("a 2.2 GB sparse miss_param file is one line, and the other model scores exactly as in the clean run", async () => {
    const run_ = copyRun(main, fresh("huge"));
    const huge = join(run_, "result", models[0], "multi_turn", resultName("miss_param"));
    rmSync(huge);
    const fd = openSync(huge, "w");
    closeSync(fd);
    execFileSync("truncate", ["-s", "2200M", huge]); // sparse: no disk space used, one 2.2 GB "line" of zeros
    const clean = await scoreJson(["--results", main, "--model", models[1]]);
    const r = await scoreJson(["--results", run_]);
    expect(r.doc.models.map((m: { model: string; scored: boolean }) => [m.model, m.scored])).toEqual([
      [models[0], false],
      [models[1], true],
    ]);
    expect(r.doc.models[1].numbers).toEqual(clean.doc.models[0].numbers);
    const lines = r.err.trim().split("\n");
    expect(lines.filter((l) => l.includes(huge))).toEqual([
      `${huge}: error: cannot read result file (a line longer than 256 MB: not a BFCL result file) [file-unreadable]`,
    ]);
    expect(r.code).toBe(1); // done, with a model that could not be scored
  }, 120_000);
});

describe("nothing to score never prints 0.0", () => {
  const emptyRun = () => {
    const dir = fresh("empty");
    for (const model of models) {
      mkdirSync(join(dir, model, "multi_turn"), { recursive: true });
      for (const c of categories) writeFileSync(join(dir, model, "multi_turn", resultName(c)), "");
    }
    return dir;
  };

  it("all files empty: numbers null in the document, nothing on stdout, exit 2 with the reason", async () => {
    const dir = emptyRun();
    // no pair decided: no numbers at all, never a row of zeros
    const doc = await scoreRuns({ results: [dir], bootstrap: { resamples: 0 } });
    expect(doc.exitCode).toBe(2);
    expect(doc.models[0]).toMatchObject({
      scored: false,
      numbers: null,
      undecided: { pairs: 223, total: 223, byStatus: { missing: 223 } },
    });
    // a command that scored nothing shows nothing: no header over an empty table, no document, the reason on stderr
    for (const format of ["table", "csv", "markdown", "json"]) {
      const text = await run(["score", "--results", dir, "--bootstrap", "0", "--format", format]);
      expect(text.out).toBe("");
      expect(text.err).toContain("error: no model has a pair to score");
      expect(text.code).toBe(2);
    }
  });

  it("a model of empty files beside a real one: its row has empty cells and the reason, never 0.0", async () => {
    const dir = copyRun(main, fresh("half-empty"), { only: [models[0]] });
    mkdirSync(join(dir, "result", "empty-model", "multi_turn"), { recursive: true });
    for (const c of categories) writeFileSync(join(dir, "result", "empty-model", "multi_turn", resultName(c)), "");
    const csv = await run(["score", "--results", dir, "--bootstrap", "0", "--format", "csv", "--reading", "release"]);
    expect(csv.code).toBe(1);
    const [header, ...rows] = csv.out
      .trim()
      .split("\n")
      .map((l) => l.split(","));
    const row = rows.find((r) => r[0] === "empty-model")!;
    const cell = (h: string) => row[header.indexOf(h)];
    for (const h of ["N", "act", "hold", "decision", "hold+c", "dec+c", "pair", "mf", "mp"]) expect(cell(h)).toBe("");
    expect(cell("missing")).toBe("223");
    expect(cell("note")).toBe("no headline: no pair decided; regenerate (run --retry-errors)");
    expect(rows.find((r) => r[0] === models[0])![header.indexOf("decision")]).toBe("83.2");
  });

  it("report refuses to write a page for runs with no pair", async () => {
    const out = join(tmp, "empty.html");
    const r = await run(["report", "--results", emptyRun(), "--bootstrap", "0", "--out", out]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("no model has a pair to score");
    expect(existsSync(out)).toBe(false);
  });
});

describe("a repeated key is read as BFCL's json.loads reads it", () => {
  it("every should-ask line given a second `result` (its base twin's): scored and checked by that last one, each line warned about", async () => {
    const doubled = copyRun(main, fresh("second-result"), { only: [models[1]] });
    const replaced = copyRun(main, fresh("result-replaced"), { only: [models[1]] });
    const folder = (dir: string) => join(dir, "result", models[1], "multi_turn");
    const baseResult = new Map<string, string>();
    for (const l of readFileSync(join(folder(doubled), resultName("base")), "utf8").split("\n")) {
      if (l === "") continue;
      const entry = JSON.parse(l) as { id: string; result: unknown };
      baseResult.set(entry.id.replace("multi_turn_base_", ""), JSON.stringify(entry.result));
    }
    let changed = 0;
    for (const c of ["miss_func", "miss_param"]) {
      const lines = readFileSync(join(folder(doubled), resultName(c)), "utf8").split("\n");
      const asPython = lines.map((l) => {
        if (l === "") return l;
        const entry = JSON.parse(l) as { id: string; result: unknown };
        const twin = baseResult.get(entry.id.replace(`multi_turn_${c}_`, ""));
        if (twin === undefined) return l;
        entry.result = JSON.parse(twin);
        return JSON.stringify(entry);
      });
      const withSecond = lines.map((l) => {
        if (l === "") return l;
        const twin = baseResult.get((JSON.parse(l) as { id: string }).id.replace(`multi_turn_${c}_`, ""));
        if (twin === undefined) return l;
        changed++;
        return `${l.slice(0, l.lastIndexOf("}"))}, "result": ${twin}}`;
      });
      writeFileSync(join(folder(doubled), resultName(c)), withSecond.join("\n"));
      writeFileSync(join(folder(replaced), resultName(c)), asPython.join("\n"));
    }
    expect(changed).toBe(400);
    const a = await scoreJson(["--results", doubled]);
    const b = await scoreJson(["--results", replaced]);
    expect(a.doc.models[0].numbers).toEqual(b.doc.models[0].numbers);
    expect(a.doc.models[0].numbers.act).not.toBe(82.1);
    const repeated = a.doc.models[0].problems.filter((p: { code: string }) => p.code === "key-repeated");
    expect(repeated).toHaveLength(400);
    expect(repeated[0]).toMatchObject({ file: join(folder(doubled), resultName("miss_func")), line: 1, severity: "warning" });
    expect(repeated[0].message).toBe(
      "multi_turn_miss_func_0: the line gives `result` more than once; read as BFCL's json.loads reads it, by the last one",
    );
    const text = await run(["score", "--results", doubled, "--bootstrap", "0"]);
    expect(text.err).toContain(
      `warning: ${models[1]}: 415 warnings reading its files (15 inference-error, 400 key-repeated); --verbose lists each with file:line [warnings]`,
    );
    const checkOf = async (dir: string) =>
      (
        JSON.parse((await run(["check", "--results", dir, "--bfcl-data", bfclDataDir(), "--format", "json"])).out) as {
          files: { category: string; correct: number }[];
        }
      ).files.map((f) => [f.category, f.correct]);
    expect(await checkOf(doubled)).toEqual(await checkOf(replaced));
  }, 120_000);
});

describe("bytes that are not UTF-8", () => {
  it("score skips that line with a file:line warning and counts its pair missing; check names it and checks the other files", async () => {
    const dir = copyRun(main, fresh("not-utf8"), { only: [models[1]] });
    const file = join(dir, "result", models[1], "multi_turn", resultName("miss_param"));
    const bytes = readFileSync(file);
    const lineStarts = [0, ...[...bytes.entries()].filter(([, b]) => b === 0x0a).map(([i]) => i + 1)];
    // the line of the first scored miss_param pair, one byte inside its log
    const manifest = JSON.parse(readFileSync(join(projectRoot, "data", "manifest.json"), "utf8")) as {
      pairs: { missId: string; category: string; status: string }[];
    };
    const missId = manifest.pairs.find((p) => p.status === "scored" && p.category === "miss_param")!.missId;
    const index = lineStarts.findIndex((s) =>
      bytes
        .subarray(s, s + 40)
        .toString()
        .startsWith(`{"id": "${missId}"`),
    );
    const lineNo = index + 1;
    const at = bytes.indexOf(Buffer.from('"inference_log"'), lineStarts[index]) + 40;
    bytes[at] = 0xff;
    writeFileSync(file, bytes);
    const clean = await scoreJson(["--results", join(main, "result", models[1]), "--reading", "release"]);
    const r = await scoreJson(["--results", dir, "--reading", "release"]);
    const bad = r.doc.models[0].problems.filter((p: { code: string }) => p.code === "utf8-invalid");
    expect(bad).toEqual([
      {
        code: "utf8-invalid",
        severity: "warning",
        file,
        line: lineNo,
        message: `not valid UTF-8 (byte 0xff at byte ${at - lineStarts[index] + 1} of the line): Python's utf-8 codec raises UnicodeDecodeError on it, so BFCL reads none of this file; the line is skipped`,
      },
    ]);
    expect(r.doc.models[0].undecided.byStatus.missing).toBe(clean.doc.models[0].undecided.byStatus.missing + 1);
    expect(r.code).toBe(0);
    const c = await run(["check", "--results", dir, "--bfcl-data", bfclDataDir(), "--format", "csv"]);
    expect(c.err).toContain(
      `${file}:${lineNo}: error: not valid UTF-8 (byte 0xff at byte ${at - lineStarts[index] + 1} of the line): Python's utf-8 codec raises UnicodeDecodeError on it, so BFCL reads none of this file; the file is not checked [utf8-invalid]`,
    );
    expect(
      c.out
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split(",")[1]),
    ).toEqual(["base", "miss_func"]);
    expect(c.code).toBe(2);
  }, 120_000);
});

describe("huge replies", () => {
  // Each step is 16 times the longest step detection samples: a sampled one would change the
  // reason's "N of M sampled" and the numbers would still be compared; larger steps test
  // nothing more (no bound here is on time), they only cost time (20 MB steps: 30 s of it).
  it("nine 1 MB text steps, over the sample bound: detection leaves them out of its sample, so the decoder and its reason are the clean copy's, and so are the numbers", async () => {
    const clean = copyRun(main, fresh("huge-clean"), { only: [models[1]] });
    const dir = copyRun(main, fresh("huge-steps"), { only: [models[1]] });
    const file = join(dir, "result", models[1], "multi_turn", resultName("base"));
    const lines = readFileSync(file, "utf8").split("\n");
    const reply = "The answer is below. ".repeat(Math.ceil((16 * MAX_SAMPLED_STEP) / 21)); // 1 MB of text
    let grown = 0;
    for (let i = 0; i < lines.length && grown < 9; i++) {
      const entry = JSON.parse(lines[i]) as { result: unknown };
      if (!Array.isArray(entry.result) || entry.result.length < 2) continue;
      (entry.result.at(-1) as unknown[]).push(reply);
      lines[i] = JSON.stringify(entry);
      grown++;
    }
    writeFileSync(file, lines.join("\n"));
    const before = await scoreJson(["--results", clean]);
    const after = await scoreJson(["--results", dir]);
    expect(after.code).toBe(before.code);
    expect(after.doc.models[0].decoder).toEqual(before.doc.models[0].decoder);
    expect(after.doc.models[0].numbers).toEqual(before.doc.models[0].numbers);
    const check = await run(["check", "--results", dir, "--bfcl-data", bfclDataDir(), "--format", "json"]);
    const cleanCheck = await run(["check", "--results", clean, "--bfcl-data", bfclDataDir(), "--format", "json"]);
    const decoderOf = (out: string) => (JSON.parse(out) as { files: { decoder: unknown }[] }).files[0].decoder;
    expect(decoderOf(check.out)).toEqual(decoderOf(cleanCheck.out));
  }, 120_000);
});

describe("a truncated score file", () => {
  it("is reported, that model's official columns stay empty, exit 1", async () => {
    const dir = copyRun(main, fresh("cut-score"), { scores: true });
    const file = join(dir, "score", models[0], "multi_turn", scoreName("miss_func"));
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const r = await scoreJson(["--results", dir, "--scores", dir, "--reading", "release"]);
    expect(r.code).toBe(1);
    expect(r.doc.official.models.map((m: { model: string }) => m.model)).toEqual([models[1]]);
    expect(r.err).toMatch(/score-file-truncated/);
    expect(r.err).toMatch(
      /the miss_func score file is incomplete or disagrees with its header; official numbers for the model are not computed \[score-file-unusable\]/,
    );
  });
});

describe("special files", () => {
  it("a FIFO named like a result file hangs neither score nor check: it is reported and skipped", async () => {
    const dir = copyRun(main, fresh("fifo"), { only: [models[1]] });
    const fifoDir = join(dir, "result", "fifo-model", "multi_turn");
    mkdirSync(fifoDir, { recursive: true });
    execFileSync("mkfifo", [join(fifoDir, resultName("base"))]);
    const s = await run(["score", "--results", dir, "--bootstrap", "0", "--format", "csv", "--reading", "release"]);
    expect(s.err).toContain(
      `${join(fifoDir, resultName("base"))}: warning: not a regular file (a FIFO, socket or device?); skipped [not-regular-file]`,
    );
    expect(s.out.split("\n")[1]).toMatch(/^openai_gpt-oss-20b,223,89\.7,74\.4,82\.1,/);
    const c = await run(["check", "--results", dir, "--bfcl-data", bfclDataDir(), "--format", "csv"]);
    expect(c.err).toContain("[not-regular-file]");
    expect(c.out.trim().split("\n")).toHaveLength(4);
  }, 120_000);

  it("--per-item writes through a FIFO and a symbolic link, and never over an input file", async () => {
    const dir = copyRun(main, fresh("targets"), { only: [models[1]] });
    const real = join(tmp, "items-real.csv");
    writeFileSync(real, "old\n");
    const link = join(tmp, "items-link.csv");
    symlinkSync(real, link);
    const viaLink = await run(["score", "--results", dir, "--bootstrap", "0", "--reading", "release", "--per-item", link]);
    expect(viaLink.code).toBe(0);
    expect(readFileSync(real, "utf8").split("\n")[0]).toMatch(/^model,miss_id,/);
    expect(statSync(link, { throwIfNoEntry: false }) && existsSync(link)).toBe(true);
    const fifo = join(tmp, "items.fifo");
    execFileSync("mkfifo", [fifo]);
    const reader = new Promise<string>((resolve) => {
      const cat = spawn("cat", [fifo]);
      let text = "";
      cat.stdout.on("data", (d: Buffer) => (text += d.toString()));
      cat.on("close", () => resolve(text));
    });
    const viaFifo = await run(["score", "--results", dir, "--bootstrap", "0", "--reading", "release", "--per-item", fifo]);
    expect(viaFifo.code).toBe(0);
    expect((await reader).split("\n")[0]).toMatch(/^model,miss_id,/);
    expect(statSync(fifo).isFIFO()).toBe(true); // still a FIFO, not replaced by a regular file
    const input = join(dir, "result", models[1], "multi_turn", resultName("base"));
    const before = readFileSync(input);
    const clobber = await run(["score", "--results", dir, "--bootstrap", "0", "--per-item", input]);
    expect(clobber.code).toBe(2);
    expect(clobber.err).toContain("--per-item names a file this command reads; refusing to write over it [output-is-input]");
    expect(readFileSync(input).equals(before)).toBe(true);
  });

  it("--per-item through a dangling link creates the link's target, as the shell would, and the link stays", async () => {
    const dir = copyRun(main, fresh("dangling"), { only: [models[1]] });
    const outDir = fresh("per-item-out");
    mkdirSync(outDir);
    const link = join(tmp, "items-dangling.csv");
    symlinkSync(join(outDir, "items.csv"), link);
    const r = await run(["score", "--results", dir, "--bootstrap", "0", "--reading", "release", "--per-item", link]);
    expect(r.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(outDir, "items.csv"), "utf8").split("\n")[0]).toMatch(/^model,miss_id,/);
    expect(readdirSync(outDir)).toEqual(["items.csv"]);
  });
});

describe("an unreadable model folder", () => {
  // chmod 000 stops only a user the kernel checks permissions for: run as root, the commands
  // run as nobody (setpriv), from a copy of the built package that user can read; the folder
  // is first shown to be unreadable for that user, so the test cannot pass by reading it
  const asUser = (argv: string[]) => {
    const root = process.getuid?.() === 0;
    const command = root ? "setpriv" : process.execPath;
    const args = root ? ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, ...argv] : argv;
    return spawnSync(command, args, { encoding: "utf8", timeout: 120_000 });
  };
  let open: string;
  let pkg: string;
  beforeAll(() => {
    requireFreshBuild(join("bin", "twinscore.js"));
    open = mkdtempSync(join(tmpdir(), "twinscore-unreadable-"));
    chmodSync(open, 0o755);
    pkg = join(open, "pkg");
    cpSync(join(projectRoot, "dist", "bin"), join(pkg, "dist", "bin"), { recursive: true });
    cpSync(join(projectRoot, "data"), join(pkg, "data"), { recursive: true });
    cpSync(join(projectRoot, "package.json"), join(pkg, "package.json"));
  });
  afterAll(() => rmSync(open, { recursive: true, force: true }));

  it("is named in one line by score, check and report, which count it as a finding and go on with the other model", () => {
    const dir = copyRun(main, join(open, "run"));
    const blocked = join(dir, "result", models[0]);
    chmodSync(blocked, 0o000);
    const out = join(open, "out");
    mkdirSync(out);
    chmodSync(out, 0o777);
    const probe = asUser(["-e", `require("node:fs").readdirSync(${JSON.stringify(blocked)})`]);
    expect(probe.status, "the folder must be unreadable for the user the commands run as").not.toBe(0);
    const bin = join(pkg, "dist", "bin", "twinscore.js");
    const line = `${blocked}: error: cannot read this folder (EACCES): whatever it holds is not read [folder-unreadable]`;
    const score = asUser([bin, "score", "--results", dir, "--bootstrap", "0", "--format", "csv"]);
    expect(score.stderr.split("\n").filter((l) => l.includes(blocked))).toEqual([line]);
    expect(
      score.stdout
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split(",")[0]),
    ).toEqual([models[1]]);
    expect(score.status).toBe(1);
    const report = asUser([bin, "report", "--results", dir, "--bootstrap", "0", "--out", join(out, "r.html")]);
    expect(report.stderr.split("\n").filter((l) => l.includes(blocked))).toEqual([line]);
    expect(existsSync(join(out, "r.html"))).toBe(true);
    expect(report.status).toBe(1);
    // check ends in 2 for any result it could not check, as for an unreadable file
    const check = asUser([bin, "check", "--results", dir, "--bfcl-data", bfclDataDir(), "--format", "csv"]);
    expect(check.stderr.split("\n").filter((l) => l.includes(blocked))).toEqual([line]);
    expect(
      check.stdout
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split(",")[0]),
    ).toEqual([models[1], models[1], models[1]]);
    expect(check.status).toBe(2);
    chmodSync(blocked, 0o755);
  }, 120_000);
});

describe("the executor never stalls", () => {
  it("a square_root call at a precision of 10^8 in a real line is noted for its entry; every file is checked", async () => {
    const dir = copyRun(main, fresh("sqrt"), { only: [models[1]] });
    const file = join(dir, "result", models[1], "multi_turn", resultName("base"));
    const lines = readFileSync(file, "utf8").split("\n");
    const at = lines.findIndex((l) => l.startsWith('{"id": "multi_turn_base_15"'));
    const entry = JSON.parse(lines[at]) as { result: unknown[][] };
    entry.result[0].unshift([{ square_root: JSON.stringify({ number: 2, precision: 100_000_000 }) }]);
    lines[at] = JSON.stringify(entry);
    writeFileSync(file, lines.join("\n"));
    const c = await run(["check", "--results", dir, "--bfcl-data", bfclDataDir(), "--format", "csv"]);
    // one summary line for the model's warnings, as score prints them; --verbose gives the line itself
    expect(c.err).toContain(
      `warning: ${models[1]}: 1 warning reading its files (1 call-not-emulated); --verbose lists each with file:line [warnings]\n`,
    );
    const v = await run(["check", "--results", dir, "--bfcl-data", bfclDataDir(), "--format", "csv", "--verbose"]);
    expect(v.err).toContain(
      `${file}:${at + 1}: warning: multi_turn_base_15: twinscore does not emulate square_root() at a precision of 100000000 digits (CPython's decimal would compute for minutes or more; twinscore stops above 100,000); the verdict and the error object may differ from BFCL's [call-not-emulated]`,
    );
    expect(c.err).not.toContain("internal error");
    expect(c.code).toBe(0);
    expect(c.out.trim().split("\n")).toHaveLength(4);
    expect(v.out).toBe(c.out);
  }, 120_000);
});

describe("resample counts have a bound, said in --help and in the error line", () => {
  it.each([
    ["score", ["--results", main]],
    ["compare", ["--a", main, "--b", fixes]],
    ["report", ["--results", main, "--out", join(tmp, "never.html")]],
  ])("%s --bootstrap 10000000 is refused at once with one line, exit 2", async (command, args) => {
    const r = await run([command, ...args, "--bootstrap", "10000000"]);
    expect(r.code).toBe(2);
    expect(r.err).toBe("error: --bootstrap must be an integer from 0 to 100000, got 10000000 [bad-argument]\n");
    expect(r.out).toBe("");
    const help = await run([command, "--help"]);
    expect(help.out.replace(/\s+/g, " ")).toMatch(/--bootstrap <n> resamples of [^(]*\(0: [^)]*; at most 100000\)/);
  });

  it("--seed past 2^53 - 1 is refused with the bound, before anything is read", async () => {
    const r = await run(["score", "--results", main, "--seed", "9007199254740993"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^error: --seed must be an integer from 0 to 9007199254740991, got 9007199254740992 \[bad-argument\]\n$/);
    expect(r.out).toBe("");
  });

  it("verify refuses an expected file whose resamples is 1e9, naming the file and the entry", async () => {
    const expected = join(tmp, "huge-resamples.json");
    writeFileSync(
      expected,
      JSON.stringify({
        runs: [
          {
            name: "main",
            models: [{ name: models[1] }],
            bootstrap: { resamples: 1e9 },
            numbers: [{ name: `tables.C.${models[1]}.decision`, value: 82.1, rollouts: [models[1]] }],
          },
        ],
      }),
    );
    const r = await run(["verify", "--expected", expected, "--results", main]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `${expected}: error: runs[0].bootstrap.resamples must be an integer from 0 to 100000, got 1000000000 [expected-malformed]\n`,
    );
  });
});

describe("several runs, one walk", () => {
  it("two --results trees with the same model folders: four models named <run>/<model>, not one copy per name", async () => {
    const r = await scoreJson(["--results", main, "--results", fixes, "--reading", "release"]);
    expect(r.doc.models.map((m: { model: string }) => m.model)).toEqual([
      `2025-11-12-main/${models[0]}`,
      `2025-11-12-main/${models[1]}`,
      `2025-11-12-harmony-fixes/${models[0]}`,
      `2025-11-12-harmony-fixes/${models[1]}`,
    ]);
    expect(r.doc.models.map((m: { numbers: { decision: number } }) => m.numbers.decision.toFixed(1))).toEqual([
      "83.2",
      "82.1",
      "81.8",
      "79.8",
    ]);
  });

  it("200 model folders whose multi_turn links to one of two real ones: 2 models scored, the 198 others named in one line (JSON keeps each)", async () => {
    const root = linkedMultiTurnTree(fresh("linked-200"), join(main, "result"), models);
    const text = await run(["score", "--results", root, "--bootstrap", "0", "--reading", "release", "--format", "csv"]);
    expect(text.code).toBe(0);
    expect(
      text.out
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split(",")[0]),
    ).toEqual([`m1-${models[0]}`, `m2-${models[1]}`]);
    const sameFolder = text.err.split("\n").filter((l) => l.includes("[same-folder]"));
    expect(sameFolder).toEqual([
      `warning: 198 folders were reached again by another path (a link, another --results) and are scored once (the first: m10-${models[1]}: same folder as m2-${models[1]}, scored once); --verbose lists each [same-folder]`,
    ]);
    const j = await scoreJson(["--results", root]);
    const named = j.doc.problems.filter((p: { code: string }) => p.code === "same-folder").map((p: { message: string }) => p.message);
    expect(named).toHaveLength(198);
    expect(named).toContain(`m7-${models[0]}: same folder as m1-${models[0]}, scored once`);
  });

  // the walk's own test (io/tree.test.ts) has 200 such folders; here each folder is a model scored
  // in full, and 20 (two-digit names among them) show as well that none is taken for another
  it("20 model folders of links to the real result files score 20 models", async () => {
    const root = linkedFilesTree(fresh("file-links-20"), join(main, "result"), models, 20);
    const r = await run(["score", "--results", root, "--bootstrap", "0", "--reading", "release", "--format", "csv"]);
    expect(r.code).toBe(0);
    const rows = r.out.trim().split("\n").slice(1);
    expect(rows).toHaveLength(20);
    expect(rows.map((l) => l.split(",")[0]).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 1}-${models[i % 2]}`).sort());
    expect(rows.every((l) => /^m\d+-openai_gpt-oss-(120b,223,96\.9,69\.5,83\.2|20b,223,89\.7,74\.4,82\.1),/.test(l))).toBe(true);
  }, 120_000);

  it("a parent folder of runs is accepted by score and check alike, and both find the same models", async () => {
    const parent = fresh("parent");
    copyRun(main, join(parent, "main"), { only: [models[1]] });
    copyRun(fixes, join(parent, "fixes"), { only: [models[1]] });
    const s = await scoreJson(["--results", parent, "--reading", "release"]);
    expect(s.code).toBe(0);
    const names = s.doc.models.map((m: { model: string }) => m.model);
    expect(names).toEqual([`fixes/${models[1]}`, `main/${models[1]}`]);
    const c = await run(["check", "--results", parent, "--bfcl-data", bfclDataDir(), "--format", "json"]);
    expect(c.code).toBe(0);
    expect([...new Set(JSON.parse(c.out).files.map((f: { folder: string }) => f.folder))]).toEqual(names);
  }, 120_000);

  it("verify names the match rule when a run's folders were all left out, and exits 1 when nothing was checked", async () => {
    const expected = join(tmp, "own.json");
    writeFileSync(
      expected,
      JSON.stringify({
        runs: [
          {
            name: "mine",
            match: "my-run",
            models: [{ name: models[1] }],
            bootstrap: { resamples: 0 },
            numbers: [{ name: `tables.C.${models[1]}.decision`, value: 82.1, tolerance: 0.05, rollouts: [models[1]] }],
          },
        ],
      }),
    );
    const r = await run(["verify", "--expected", expected, "--results", main]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`SKIP mine: tables.C.${models[1]}.decision expected=82.1 ±0.05 (rollouts absent: ${models[1]})\n`);
    expect(r.err).toContain('note: run "mine": no model folder found has "my-run" (its match) in its path, so its 1 numbers are skipped;');
    expect(r.err).toContain("[nothing-checked]");
  });

  it("compare names a model present in one arm only and exits 1", async () => {
    const a = copyRun(main, fresh("arm-a"));
    const b = copyRun(fixes, fresh("arm-b"), { only: [models[1]] });
    const r = await run(["compare", "--a", a, "--b", b, "--bootstrap", "0", "--format", "csv", "--reading", "release"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`model ${models[0]} is scored in arm A only; it is not compared [model-one-arm]`);
    expect(r.out).toContain(`${models[1]},decision,all,223,`);
  });
});

describe("an incomplete run", () => {
  it("counts its missing pairs; past --max-undecided it gets no headline and exits 1", async () => {
    const dir = copyRun(main, fresh("incomplete"), { only: [models[0]] });
    const file = join(dir, "result", models[0], "multi_turn", resultName("miss_param"));
    writeFileSync(file, readFileSync(file, "utf8").split("\n").slice(0, 100).join("\n") + "\n");
    const r = await run(["score", "--results", dir, "--bootstrap", "0"]);
    expect(r.code).toBe(1);
    const header = r.out.split("\n")[2].trim().split(/\s+/);
    expect(header).toContain("missing");
    expect(header.at(-1)).toBe("note");
    expect(r.err).toMatch(
      /^error: model openai_gpt-oss-120b: no act, hold or decision: \d+ of 223 pairs undecided \([\d.]+ % > --max-undecided 10 %: \d+ with an inference-error side, 1 with a side that ended before the anchor, \d+ with a missing line\)/m,
    );
    const j = await scoreJson(["--results", dir]);
    const m = j.doc.models[0];
    expect([m.numbers, m.undecided.byStatus.missing > 0]).toEqual([null, true]);
    // with the gate lifted the numbers come back, with the left-out pairs beside them; exit 0 as for any warning
    const lifted = await scoreJson(["--results", dir, "--max-undecided", "100"]);
    expect(lifted.code).toBe(0);
    expect(lifted.doc.models[0].numbers.n + lifted.doc.models[0].undecided.total).toBe(223);
  });
});

describe("output documents", () => {
  it("csv with several tables is one table with a table column; markdown puts a heading between tables", async () => {
    const argv = [
      "score",
      "--results",
      join(main, "result"),
      "--scores",
      join(main, "score"),
      "--sensitivity",
      "--model",
      models[0],
      "--bootstrap",
      "0",
    ];
    const csv = await run([...argv, "--format", "csv"]);
    const lines = csv.out.trim().split("\n");
    expect(lines[0].startsWith("table,model,N,act,hold,decision,")).toBe(true);
    const width = lines[0].split(",").length;
    expect(new Set(lines.slice(1).map((l) => l.split(",")[0]))).toEqual(new Set(["decision", "official", "sensitivity"]));
    expect(lines.every((l) => l.split(",").length === width)).toBe(true);
    const md = await run([...argv, "--format", "markdown"]);
    // each table keeps its caption (what N counts) between its heading and its rows
    expect(md.out).toMatch(/^### decision\n\nDecision to act on 223 certified pairs \(Table 1\)[^\n]*\n\n\| model \|/);
    expect(md.out).toContain(
      "|\n\n### official\n\nOfficial score on the same items (BFCL's verdict, read from the score files)\n\n| model | off.miss |",
    );
    expect(md.out).toContain("\n\n### sensitivity\n\n");
  });

  it("--format json of every command is its document, numbers as numbers", async () => {
    const compare = await run([
      "compare",
      "--a",
      join(main, "result"),
      "--b",
      join(fixes, "result"),
      "--model",
      models[0],
      "--scores-a",
      join(main, "score"),
      "--scores-b",
      join(fixes, "score"),
      "--bootstrap",
      "0",
      "--format",
      "json",
    ]);
    const doc = JSON.parse(compare.out);
    expect(doc.command).toBe("compare");
    expect(typeof doc.models[0].comparison.official.rawMiss.a).toBe("number");
    for (const out of [
      compare.out,
      (await run(["check", "--results", join(main, "result", models[1]), "--bfcl-data", bfclDataDir(), "--format", "json"])).out,
    ]) {
      expect(out).not.toMatch(/"-?\d+(\.\d+)?%?"/); // no number written as a string
    }
  }, 120_000);
});

describe("errors first, and arguments before inputs", () => {
  it("score --per-item into a missing folder: the error is the first and only line, nothing is read", async () => {
    const r = await run(["score", "--results", main, "--per-item", "/nonexistent/x.csv"]);
    expect(r.code).toBe(2);
    expect(r.err).toBe("/nonexistent: error: output folder does not exist [file-missing]\n");
    expect(r.out).toBe("");
  });

  it("judge without --endpoint and report --compare with an unknown run stop before reading any rollout", async () => {
    const j = await run(["judge", "--results", main]);
    expect(j.code).toBe(2);
    expect(j.err).toBe("error: --endpoint and --judge-model are required (or use --dry-run) [bad-argument]\n");
    const r = await run(["report", "--results", main, "--compare", "main", "nope", "--out", join(tmp, "r.html")]);
    expect(r.code).toBe(2);
    expect(r.err).not.toContain("report: scoring");
    expect(r.err).toMatch(/--compare main: no such run \(runs: 2025-11-12-main\)/);
  });

  it("one summary line per model for routine warnings; --verbose lists them", async () => {
    const r = await run(["score", "--results", main, "--bootstrap", "0"]);
    expect(r.err.trim().split("\n")).toEqual([
      // gpt-oss-20b's 23 undecided pairs are over the gate: errors first
      expect.stringMatching(new RegExp(`^error: model ${models[1]}: no act, hold or decision: 23 of 223 pairs undecided`)),
      // the score files' prompts of the failed holdout items show the data from before BFCL's holdout-index fix
      ...models.map((m) =>
        expect.stringMatching(
          new RegExp(
            `: warning: model ${m}: generated on BFCL v4 data from before 06ae1c76 .*: 8 items differ: multi_turn_miss_func 101, 102, 115, 120, 122, 124, 129, 130 \\[rollouts-older-data\\]$`,
          ),
        ),
      ),
      // one warning per inference-error line of the three files, whether or not a pair of this reading reads it
      `warning: ${models[0]}: 12 warnings reading its files (12 inference-error); --verbose lists each with file:line [warnings]`,
      `warning: ${models[1]}: 30 warnings reading its files (30 inference-error); --verbose lists each with file:line [warnings]`,
      // the folders are not in BFCL's model registry: the detected decoder is said once per model
      expect.stringMatching(new RegExp(`^note: ${models[0]}: decoder fc \\(not in BFCL's model registry.*\\) \\[decoder-detected\\]$`)),
      expect.stringMatching(new RegExp(`^note: ${models[1]}: decoder fc \\(not in BFCL's model registry.*\\) \\[decoder-detected\\]$`)),
      // the run folder's score/ is read as --scores
      `note: BFCL's verdicts read from the score/ folder beside result/: ${join(main, "score")} (--scores DIR reads others) [scores-beside]`,
    ]);
    const v = await run(["score", "--results", main, "--bootstrap", "0", "--verbose"]);
    expect(v.err.trim().split("\n")).toHaveLength(1 + 2 + 42 + 2 + 1);
  });
});

describe("paths", () => {
  it("a file given as --results says so and names its folder", async () => {
    const file = join(main, "result", models[0], "multi_turn", resultName("base"));
    const r = await run(["score", "--results", file]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      `${file}: error: --results names a file, not a folder; give the folder that holds it: --results ${join(main, "result", models[0], "multi_turn")} [results-missing]`,
    );
  });

  it("--results …/multi_turn scores the model that folder belongs to", async () => {
    const r = await scoreJson(["--results", join(main, "result", models[0], "multi_turn")]);
    expect(r.doc.models.map((m: { model: string }) => m.model)).toEqual([models[0]]);
  });

  it("--scores pointed at a result tree is a bad argument: exit 2 with a line that says what the folder holds", async () => {
    const r = await run(["score", "--results", join(main, "result"), "--scores", join(main, "result")]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      "no BFCL multi-turn score files (BFCL_v4_multi_turn_<category>_score.json) under this directory; it holds BFCL result files: --scores takes what `bfcl evaluate` wrote [scores-empty]",
    );
  });

  it("check --out on a single run folder writes BFCL's <out>/<model>/… layout; a write failure is a problem, not an internal error", async () => {
    const dir = copyRun(main, fresh("check-out"), { only: [models[1]] });
    const out = fresh("rescored");
    const r = await run(["check", "--results", dir, "--bfcl-data", bfclDataDir(), "--out", out]);
    expect(r.code).toBe(0);
    expect(readdirSync(join(out, models[1], "multi_turn")).sort()).toEqual(categories.map(scoreName).sort());
    const blocked = join(tmp, "a-file");
    writeFileSync(blocked, "");
    const f = await run(["check", "--results", dir, "--bfcl-data", bfclDataDir(), "--out", join(blocked, "sub")]);
    expect(f.err).not.toContain("internal error");
    expect(f.err).toMatch(/cannot make the output folder \(ENOTDIR\) \[write-failed\]/);
    expect(f.code).toBe(2);
    const clobber = await run(["check", "--results", dir, "--bfcl-data", bfclDataDir(), "--scores", out, "--out", out]);
    expect(clobber.code).toBe(2);
    expect(clobber.err).toContain("[output-is-input]");
  }, 120_000);

  it("report says its size in bytes, as the file has them", async () => {
    const out = join(tmp, "bytes.html");
    const r = await run(["report", "--results", main, "--model", models[1], "--bootstrap", "0", "--reading", "release", "--out", out]);
    expect(r.code).toBe(0);
    expect(r.err).toContain(`, ${statSync(out).size} bytes)`);
  });
});

describe("--help", () => {
  it.each(["score", "compare", "report", "verify", "pairs", "check", "judge", "demo", "run"])(
    "%s --help states its exit codes",
    async (command) => {
      const r = await run([command, "--help"]);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/\nExit: 0 /);
    },
  );

  it("judge's help topic explains the columns of its summary", async () => {
    const r = await run(["help", "labels"]);
    expect(r.out).toContain("not reached  of those, rollouts that ended before the anchor");
    expect(r.out).toContain("asks_removed");
  });
});
