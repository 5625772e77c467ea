import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bfclDataDir, projectRoot, rolloutRunDir } from "../testing/shared.js";
import { memoryIo } from "./io.js";
import { runCli } from "./program.js";

const main = rolloutRunDir("2025-11-12-main");
const fixes = rolloutRunDir("2025-11-12-harmony-fixes");
const models = ["openai_gpt-oss-120b", "openai_gpt-oss-20b"] as const;
const tmp = mkdtempSync(join(tmpdir(), "twinscore-option-groups-"));

async function run(argv: string[]) {
  const io = memoryIo({}, projectRoot);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

/** The options of a command's `--help`: flag → its help text, whitespace folded. */
async function optionsOf(command: string): Promise<Map<string, string>> {
  const help = (await run([command, "--help"])).out;
  const section = help.slice(help.indexOf("\nOptions:\n") + 10).split("\n\n")[0];
  const options = new Map<string, string>();
  let current: string | null = null;
  for (const line of section.split("\n")) {
    const head = /^ {2}(-\w, )?(--[\w-]+)( <[^>]+>| \[[^\]]+\])?\s+(.*)$/.exec(line);
    if (head !== null) {
      current = head[2];
      options.set(current, head[4]);
    } else if (current !== null) options.set(current, `${options.get(current)} ${line.trim()}`);
  }
  return options;
}

/**
 * Which commands take each shared option. The help text must be the same everywhere, but
 * for `--bfcl-data` and `--format`, whose help says what they add or offer in that command.
 */
const shared: readonly { readonly flag: string; readonly commands: readonly string[]; readonly sameText: boolean }[] = [
  { flag: "--results", commands: ["score", "report", "verify", "check", "judge"], sameText: true },
  { flag: "--scores", commands: ["score", "report", "verify", "check"], sameText: true },
  { flag: "--model", commands: ["score", "compare", "report", "verify", "check", "judge"], sameText: true },
  { flag: "--bfcl-data", commands: ["score", "compare", "report", "check", "pairs", "run"], sameText: false },
  { flag: "--reading", commands: ["score", "demo", "compare", "report"], sameText: true },
  { flag: "--max-undecided", commands: ["score", "demo", "report"], sameText: true },
  { flag: "--count-login", commands: ["score", "demo", "report"], sameText: true },
  { flag: "--uncertified", commands: ["score", "demo", "report"], sameText: true },
  { flag: "--all-pairs", commands: ["score", "demo", "report"], sameText: true },
  { flag: "--trials-of", commands: ["score", "report"], sameText: true },
  { flag: "--sensitivity", commands: ["score", "demo"], sameText: true },
  { flag: "--bootstrap", commands: ["score", "demo", "compare", "report"], sameText: true },
  { flag: "--seed", commands: ["score", "demo", "compare", "report"], sameText: true },
  { flag: "--manifest", commands: ["score", "demo", "compare", "report", "verify", "judge"], sameText: true },
  { flag: "--decoder", commands: ["score", "demo", "compare", "report", "verify", "check", "judge"], sameText: true },
  { flag: "--threads", commands: ["check"], sameText: true },
  // the HTTP client's flags: one default and one help text each (a default is part of the help text)
  { flag: "--endpoint", commands: ["run", "judge"], sameText: true },
  { flag: "--key-env", commands: ["run", "judge"], sameText: true },
  { flag: "--concurrency", commands: ["run", "judge"], sameText: true },
  { flag: "--timeout", commands: ["run", "judge"], sameText: true },
  { flag: "--retries", commands: ["run", "judge"], sameText: true },
  { flag: "--strict", commands: ["score", "demo", "compare", "report", "verify", "check", "judge", "pairs"], sameText: true },
  { flag: "--verbose", commands: ["score", "demo", "compare", "report", "verify", "check", "judge", "pairs", "run"], sameText: false },
  { flag: "--format", commands: ["score", "demo", "compare", "report", "verify", "check", "judge", "pairs", "run"], sameText: false },
];

describe("an option means the same in every command that takes it", () => {
  it.each(shared)("$flag is on $commands", async ({ flag, commands, sameText }) => {
    const texts = new Map<string, string>();
    for (const command of commands) {
      const text = (await optionsOf(command)).get(flag);
      expect(text, `${command} ${flag}`).toBeDefined();
      texts.set(command, text!);
    }
    if (sameText) expect(new Set(texts.values()).size, [...texts].join("\n")).toBe(1);
  });

  it("score, demo and judge take no --threads: the pipeline reads their models on one thread, so it would do nothing", async () => {
    for (const command of ["score", "demo", "judge", "compare", "report", "verify"])
      expect([command, (await optionsOf(command)).has("--threads")]).toEqual([command, false]);
  });

  it("demo takes no --scores and no --per-item (its runs are synthetic): refused as unknown, exit 2", async () => {
    const options = await optionsOf("demo");
    expect(options.has("--scores")).toBe(false);
    expect(options.has("--per-item")).toBe(false);
    for (const argv of [
      ["--scores", main],
      ["--per-item", join(tmp, "never.csv")],
    ]) {
      const r = await run(["demo", ...argv]);
      expect(r.code).toBe(2);
      expect(r.out).toBe("");
      expect(r.err).toBe(`error: unknown option '${argv[0]}' (--help lists the options) [bad-argument]\n`);
    }
  });
});

describe("the shared options reach the use case (real 2025-11-12-main run)", () => {
  it("check --model checks only the named model folder; an unknown name is one line, exit 2", async () => {
    const r = await run(["check", "--results", main, "--bfcl-data", bfclDataDir(), "--model", models[1], "--format", "json"]);
    expect(r.code).toBe(0);
    const files = (JSON.parse(r.out) as { files: { folder: string; category: string; entries: number }[] }).files;
    expect(files.map((f) => [f.folder, f.category, f.entries])).toEqual([
      [models[1], "base", 200],
      [models[1], "miss_func", 200],
      [models[1], "miss_param", 200],
    ]);
    const bad = await run(["check", "--results", main, "--bfcl-data", bfclDataDir(), "--model", "gpt-4"]);
    expect(bad.code).toBe(2);
    expect(bad.out).toBe("");
    expect(bad.err).toBe(`error: --model gpt-4: no such model directory under the results (found: ${models.join(", ")}) [model-missing]\n`);
  }, 60_000);

  it("verify --model recomputes only the named model's numbers; the others SKIP and say why", async () => {
    const all = await run(["verify", "--expected", "data/expected/gpt-oss.json", "--results", main, "--scores", main, "--format", "json"]);
    const one = await run([
      "verify",
      "--expected",
      "data/expected/gpt-oss.json",
      "--results",
      main,
      "--scores",
      main,
      "--model",
      models[0],
      "--format",
      "json",
    ]);
    type Line = { run: string; name: string; status: string; note: string };
    const lines = (r: { out: string }) => (JSON.parse(r.out) as { lines: Line[] }).lines.filter((l) => l.run === "2025-11-12-main");
    expect(all.code).toBe(0);
    expect(one.code).toBe(0);
    const of = (ls: Line[], model: string) => ls.filter((l) => l.name.includes(`.${model}.`));
    // every number of the model kept is checked as before; every number that needs the other one SKIPs, naming --model
    expect(of(lines(one), models[0]).map((l) => [l.name, l.status])).toEqual(of(lines(all), models[0]).map((l) => [l.name, l.status]));
    expect(of(lines(all), models[1]).every((l) => l.status === "PASS")).toBe(true);
    expect(of(lines(one), models[1]).length).toBeGreaterThan(0);
    for (const l of of(lines(one), models[1])) {
      expect(l.status).toBe("SKIP");
      expect(l.note).toContain(`(left out by --model: ${models[1]})`);
    }
    const bad = await run(["verify", "--expected", "data/expected/gpt-oss.json", "--results", main, "--model", "gpt-4"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe(`error: --model gpt-4: not a model of the expected file (its models: ${models.join(", ")}) [bad-argument]\n`);
  }, 120_000);

  it("--strict turns the problems met into exit 1 in compare, report and verify (the runs' inference-error lines)", async () => {
    const out = join(tmp, "strict.html");
    const cases: [string, string[]][] = [
      ["compare", ["compare", "--reading", "release", "--a", main, "--b", fixes, "--model", models[0], "--bootstrap", "0"]],
      ["report", ["report", "--reading", "release", "--results", main, "--model", models[0], "--bootstrap", "0", "--out", out]],
      ["verify", ["verify", "--expected", "data/expected/gpt-oss.json", "--results", main, "--scores", main, "--model", models[0]]],
    ];
    for (const [command, argv] of cases) {
      const plain = await run(argv);
      expect(plain.code, command).toBe(0);
      const strict = await run([...argv, "--strict"]);
      expect(strict.code, command).toBe(1);
      // the reason is on stderr, summed up per model as score does
      expect(strict.err, command).toMatch(
        new RegExp(
          `^warning: \\S*${models[0]}\\S*( \\(arm A\\))?: \\d+ warnings reading its files \\(\\d+ inference-error\\); --verbose lists each with file:line \\[warnings\\]$`,
          "m",
        ),
      );
      expect(strict.out, command).toBe(plain.out);
    }
  }, 120_000);

  it("--decoder reaches compare, report, verify and judge: with the wrong decoder every file says its steps fail to decode", async () => {
    const wrong = ["--decoder", "prompting", "--model", models[0]];
    const out = join(tmp, "decoder.html");
    const cases: [string, string[]][] = [
      ["compare", ["compare", "--reading", "release", "--a", main, "--b", fixes, "--bootstrap", "0", "--strict", ...wrong]],
      ["report", ["report", "--reading", "release", "--results", main, "--bootstrap", "0", "--out", out, ...wrong]],
      ["verify", ["verify", "--expected", "data/expected/gpt-oss.json", "--results", main, "--scores", main, "--strict", ...wrong]],
      ["judge", ["judge", "--results", main, "--dry-run", ...wrong]],
    ];
    for (const [command, argv] of cases) {
      const r = await run(argv);
      const failures = r.err
        .split("\n")
        .filter((l) =>
          /: warning: \d+ of \d+ anchor-turn tool-call steps \(100\.0 %\) fail to decode with decoder prompting; .*\[decode-failures\]$/.test(
            l,
          ),
        );
      // base, miss_func and miss_param of the one model (compare: of both arms)
      expect(failures.length, `${command}\n${r.err}`).toBe(command === "compare" ? 6 : 3);
      const right = await run(argv.filter((a, i) => a !== "--decoder" && argv[i - 1] !== "--decoder"));
      expect(right.err, command).not.toContain("[decode-failures]");
    }
  }, 120_000);
});
